import { queryOptions } from '@tanstack/react-query';
import { gql } from '../../api/graphql';
import { graphql } from '../../gql';

export const SessionHeaderQuery = graphql(`
  query ConsoleSession($id: String!) {
    session(id: $id) {
      id
      createdAt
      updatedAt
      model
      userRequest
      workspaceRoot
      stepCount
      toolCallCount
      errorCount
      root {
        flavor
        environment
      }
      problems {
        code
      }
    }
  }
`);

/** The session page's header (`id`: the route's id or prefix). */
export const sessionQuery = (id: string) =>
  queryOptions({ queryKey: ['session', id], queryFn: () => gql(SessionHeaderQuery, { id }) });

export const StepsPageQuery = graphql(`
  query ConsoleSteps($id: String!, $from: Int!) {
    session(id: $id) {
      id
      steps(first: 100, fromPosition: $from) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          node {
            ...StepParts
          }
        }
      }
    }
  }
`);

/** Where a permalinked step is: the timeline loads its page first. */
export const StepPositionQuery = graphql(`
  query ConsoleStepPosition($id: String!, $index: Int!) {
    session(id: $id) {
      id
      step(index: $index) {
        position
      }
    }
  }
`);

export const StepPartsFragment = graphql(`
  fragment StepParts on Step {
    index
    position
    type
    status
    source
    createdAt
    userRequest
    content
    thinking
    error
    truncatedFields
    toolCalls {
      name
      position
      toolSummary
      args
      result {
        index
      }
    }
  }
`);

export const FullStepQuery = graphql(`
  query ConsoleFullStep($id: String!, $index: Int!) {
    session(id: $id) {
      id
      step(index: $index) {
        index
        content(full: true)
        thinking(full: true)
        toolCalls(full: true) {
          name
          args
        }
      }
    }
  }
`);

export const LiveStepsSubscription = graphql(`
  subscription ConsoleLiveSteps($id: String!, $from: Int!) {
    steps(sessionId: $id, fromPosition: $from) {
      ...StepParts
    }
  }
`);
