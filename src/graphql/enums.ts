import { registerEnumType } from '@nestjs/graphql';

/** The contract's enums; values mirror the store's string unions exactly. */
export enum Environment {
  IDE = 'IDE',
  CLI = 'CLI',
  ACP = 'ACP',
  OTHER = 'OTHER',
}
export enum StepSource {
  USER_EXPLICIT = 'USER_EXPLICIT',
  MODEL = 'MODEL',
  SYSTEM = 'SYSTEM',
  UNKNOWN = 'UNKNOWN',
}
export enum StepStatus {
  DONE = 'DONE',
  RUNNING = 'RUNNING',
  ERROR = 'ERROR',
  CANCELLED = 'CANCELLED',
  UNKNOWN = 'UNKNOWN',
}
export enum SessionOrder {
  NEWEST_FIRST = 'NEWEST_FIRST',
  OLDEST_FIRST = 'OLDEST_FIRST',
}
export enum ArtifactKind {
  TASK = 'TASK',
  IMPLEMENTATION_PLAN = 'IMPLEMENTATION_PLAN',
  WALKTHROUGH = 'WALKTHROUGH',
  OTHER = 'OTHER',
}
export enum SessionFileKind {
  SCRATCH = 'SCRATCH',
  UPLOAD = 'UPLOAD',
  MEDIA = 'MEDIA',
  TASK_LOG = 'TASK_LOG',
  OTHER = 'OTHER',
}
export enum FileChangeKind {
  CREATE = 'CREATE',
  OVERWRITE = 'OVERWRITE',
  EDIT = 'EDIT',
}
/** Values are the index's SearchFieldName strings (src/index/home-index.ts), in its order. */
export enum SearchField {
  USER_REQUEST = 'USER_REQUEST',
  CONTENT = 'CONTENT',
  THINKING = 'THINKING',
  TOOL_CALLS = 'TOOL_CALLS',
  OUTPUT = 'OUTPUT',
  ARTIFACT = 'ARTIFACT',
}
export enum SearchOrder {
  RELEVANCE = 'RELEVANCE',
  NEWEST_FIRST = 'NEWEST_FIRST',
}
export enum IndexState {
  BUILDING = 'BUILDING',
  READY = 'READY',
}

registerEnumType(Environment, {
  name: 'Environment',
  description: 'Which Antigravity product wrote a brain root, from its flavor.',
});
registerEnumType(StepSource, { name: 'StepSource', description: 'Who produced a step.' });
registerEnumType(StepStatus, { name: 'StepStatus', description: "A step's lifecycle state." });
registerEnumType(SessionOrder, { name: 'SessionOrder', description: 'Order of session listings.' });
registerEnumType(ArtifactKind, { name: 'ArtifactKind', description: 'What an artifact is.' });
registerEnumType(SessionFileKind, {
  name: 'SessionFileKind',
  description: 'What a session file beside the transcripts is.',
});
registerEnumType(FileChangeKind, {
  name: 'FileChangeKind',
  description: 'How a file-change call touched its file.',
});
registerEnumType(SearchField, {
  name: 'SearchField',
  description: 'Which text of a step (or an artifact) a search hit or a secret finding is in.',
});
registerEnumType(SearchOrder, { name: 'SearchOrder', description: 'Order of search hits.' });
registerEnumType(IndexState, {
  name: 'IndexState',
  description: 'Whether the home index covers every visible session yet.',
});
