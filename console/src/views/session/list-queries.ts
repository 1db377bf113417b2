import { graphql } from '../../gql';

export const CommandsQuery = graphql(`
  query ConsoleCommands($id: String!) {
    session(id: $id) {
      id
      commands {
        toolCallPosition
        commandLine
        cwd
        exitCode
        background
        taskLog
        output
        step {
          index
        }
        result {
          index
        }
      }
    }
  }
`);

export const ChangesQuery = graphql(`
  query ConsoleChanges($id: String!) {
    session(id: $id) {
      id
      fileChanges {
        toolCallPosition
        path
        kind
        tool
        diff
        linesAdded
        linesRemoved
        complete
        step {
          index
        }
      }
    }
  }
`);

export const ArtifactsQuery = graphql(`
  query ConsoleArtifacts($id: String!) {
    session(id: $id) {
      id
      artifacts {
        name
        kind
        size
        summary
        content
        modifiedAt
        versions {
          name
        }
      }
      files {
        path
        kind
        size
        modifiedAt
      }
    }
  }
`);

export const FindingsQuery = graphql(`
  query ConsoleFindings($id: String!) {
    session(id: $id) {
      id
      secrets {
        kind
        field
        count
        artifact
        step {
          index
        }
      }
      problems {
        code
        file
        line
        message
        step {
          index
        }
      }
    }
  }
`);
