/**
 * The fixed GraphQL documents behind every REST route, export and CLI command: one named
 * operation each, a variable for every parameter. Their selections are exactly what the route
 * answers (REST items are these nodes, field for field) and what the CLI prints.
 */

const SESSION_FIELDS = `
fragment SessionFields on Session {
  id source
  root { path flavor environment }
  createdAt updatedAt userRequest model localTime mentionedFiles workspaceRoot
  stepCount toolCallCount errorCount
}`;

const STEP_FIELDS = `
fragment StepFields on Step {
  index position source type status createdAt
  content(full: $full) thinking(full: $full) error
  toolCalls(full: $full) { position name args toolAction toolSummary }
  truncatedFields userRequest
  output { file size duplicatesContent }
  tokens { input output cacheRead }
}`;

const PAGE_INFO = 'pageInfo { hasNextPage endCursor }';

/** GET /api/sessions, `list`. */
export const SESSIONS = `
query Sessions($first: Int = 20, $after: String, $order: SessionOrder = NEWEST_FIRST, $filter: SessionFilter) {
  sessions(first: $first, after: $after, order: $order, filter: $filter) {
    totalCount ${PAGE_INFO}
    edges { node { ...SessionFields } }
  }
}${SESSION_FIELDS}`;

/** GET /api/sessions/{id}. */
export const SESSION = `
query Session($id: String!, $flavor: String) { session(id: $id, flavor: $flavor) { ...SessionFields } }${SESSION_FIELDS}`;

/** `summary`: metadata, counts, artifacts, problems. */
export const SESSION_SUMMARY = `
query SessionSummary($id: String!, $flavor: String) {
  session(id: $id, flavor: $flavor) {
    ...SessionFields
    artifacts { name kind summary updatedAt size modifiedAt }
    problems { code message file line }
  }
}${SESSION_FIELDS}`;

/** GET /api/sessions/{id}/steps, `steps`. */
export const STEPS = `
query Steps($id: String!, $flavor: String, $first: Int = 50, $after: String, $filter: StepFilter, $full: Boolean = false) {
  session(id: $id, flavor: $flavor) {
    id
    steps(first: $first, after: $after, filter: $filter) {
      totalCount ${PAGE_INFO}
      edges { node { ...StepFields } }
    }
  }
}${STEP_FIELDS}`;

/** GET /api/sessions/{id}/steps/{index}, `step`: the step with its calls' results and output. */
export const STEP = `
query Step($id: String!, $flavor: String, $index: Int!, $full: Boolean = false) {
  session(id: $id, flavor: $flavor) {
    id
    step(index: $index) {
      ...StepFields
      toolCalls(full: $full) { result { index position type status } }
      output { text }
    }
  }
}${STEP_FIELDS}`;

/** `tools`: a page of steps with their tool calls and each call's result. */
export const TOOLS = `
query Tools($id: String!, $flavor: String, $first: Int = 500, $after: String, $full: Boolean = false) {
  session(id: $id, flavor: $flavor) {
    id
    steps(first: $first, after: $after) {
      totalCount ${PAGE_INFO}
      edges { node { index position type status
        toolCalls(full: $full) { position name args toolAction toolSummary
          result { index position type status } } } }
    }
  }
}`;

/** GET /api/sessions/{id}/commands, `commands`. */
export const COMMANDS = `
query Commands($id: String!, $flavor: String) {
  session(id: $id, flavor: $flavor) {
    id
    commands {
      step { index position } toolCallPosition commandLine cwd
      result { index position type status }
      background exitCode output taskLog
    }
  }
}`;

/** GET /api/sessions/{id}/file-changes, `changes`. */
export const FILE_CHANGES = `
query FileChanges($id: String!, $flavor: String) {
  session(id: $id, flavor: $flavor) {
    id
    fileChanges {
      step { index position } toolCallPosition tool path kind description complete
      linesAdded linesRemoved diff status
    }
  }
}`;

/** GET /api/sessions/{id}/problems. */
export const PROBLEMS = `
query Problems($id: String!, $flavor: String) { session(id: $id, flavor: $flavor) { id problems { code message file line } } }`;

/** GET /api/sessions/{id}/secrets. */
export const SECRETS = `
query Secrets($id: String!, $flavor: String) {
  session(id: $id, flavor: $flavor) { id secrets { kind field step { index position } artifact count } }
}`;

/** `artifacts`: the list without contents. */
export const ARTIFACTS = `
query Artifacts($id: String!, $flavor: String) {
  session(id: $id, flavor: $flavor) {
    id
    artifacts { name kind summary updatedAt size modifiedAt metadata versions { name size modifiedAt } }
  }
}`;

/** `artifacts --cat NAME`: one artifact's content. */
export const ARTIFACT = `
query Artifact($id: String!, $flavor: String, $name: String!) {
  session(id: $id, flavor: $flavor) { id artifact(name: $name) { name kind size modifiedAt content } }
}`;

/** GET /api/search, `search`. */
export const SEARCH = `
query Search($query: String!, $first: Int = 20, $after: String, $filter: SearchFilter, $order: SearchOrder = RELEVANCE) {
  search(query: $query, first: $first, after: $after, filter: $filter, order: $order) {
    totalCount ${PAGE_INFO}
    edges { node {
      session { id createdAt userRequest }
      field step { index position type } artifact snippet highlights { start length }
      matchCount score
    } }
  }
}`;

/** GET /api/stats, `stats`. */
export const STATS = `
query Stats($filter: SessionFilter, $bucket: TimeBucket = DAY) {
  stats(filter: $filter) {
    sessions steps toolCalls errors commands failedCommands fileChanges linesAdded linesRemoved
    byEnvironment { key count } byFlavor { key count } byModel { key count }
    byStepType { key count } byStatus { key count } byTool { name calls errors }
    timeline(bucket: $bucket) { start sessions steps toolCalls errors }
  }
}`;

/** The export's header: the session and its artifacts. */
export const EXPORT_SESSION = `
query ExportSession($id: String!, $flavor: String) {
  session(id: $id, flavor: $flavor) {
    ...SessionFields
    artifacts { name kind summary updatedAt content }
    problems { code message file line }
  }
}${SESSION_FIELDS}`;

/**
 * The export's steps, a page at a time, with outputs; at the full tier unless `$full` is false
 * (a step whose full record is over MAX_RESPONSE_BYTES is exported from its compact record).
 */
export const EXPORT_STEPS = `
query ExportSteps($id: String!, $flavor: String, $first: Int = 50, $after: String, $full: Boolean = true) {
  session(id: $id, flavor: $flavor) {
    id
    steps(first: $first, after: $after) {
      ${PAGE_INFO}
      edges { node {
        index position source type status createdAt
        content(full: $full) thinking(full: $full) error truncatedFields userRequest
        toolCalls(full: $full) { position name args toolAction toolSummary result { index position } }
        output { file size duplicatesContent text }
        tokens { input output cacheRead }
      } }
    }
  }
}`;
