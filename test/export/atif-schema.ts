/**
 * A JSON Schema of ATIF v1.7 (Harbor RFC 0001, "Agent Trajectory Interchange Format"), written
 * from the RFC's tables: root, agent, step, tool call, observation, metrics and final metrics,
 * no fields beyond the spec's (every object of it allows `extra`). Rules a JSON Schema cannot
 * say (step ids 1..n in order, agent-only fields, source_call_id naming a call of its step)
 * are checked by `atifRuleErrors`.
 */
const str = { type: 'string' };
/** ISO 8601 date-time, as the RFC's validator accepts it. */
const ISO = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$';
const int = { type: 'integer', minimum: 0 };
const obj = { type: 'object' };

const toolCall = {
  type: 'object',
  additionalProperties: false,
  required: ['tool_call_id', 'function_name', 'arguments'],
  properties: { tool_call_id: str, function_name: str, arguments: obj, extra: obj },
};

const observation = {
  type: 'object',
  additionalProperties: false,
  required: ['results'],
  properties: {
    results: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          source_call_id: { type: ['string', 'null'] },
          content: { type: ['string', 'null'] },
          subagent_trajectory_ref: { type: 'array' },
          extra: obj,
        },
      },
    },
  },
};

const metrics = {
  type: 'object',
  additionalProperties: false,
  properties: {
    prompt_tokens: int,
    completion_tokens: int,
    cached_tokens: int,
    cost_usd: { type: 'number' },
    prompt_token_ids: { type: 'array', items: { type: 'integer' } },
    completion_token_ids: { type: 'array', items: { type: 'integer' } },
    logprobs: { type: 'array', items: { type: 'number' } },
    extra: obj,
  },
};

const step = {
  type: 'object',
  additionalProperties: false,
  required: ['step_id', 'source', 'message'],
  properties: {
    step_id: { type: 'integer', minimum: 1 },
    timestamp: { type: 'string', pattern: ISO },
    source: { enum: ['system', 'user', 'agent'] },
    model_name: str,
    reasoning_effort: { type: ['string', 'number'] },
    message: { type: ['string', 'array'] },
    reasoning_content: str,
    tool_calls: { type: 'array', items: toolCall },
    observation,
    metrics,
    llm_call_count: int,
    extra: obj,
  },
};

export const ATIF_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['schema_version', 'session_id', 'agent', 'steps'],
  properties: {
    schema_version: { const: 'ATIF-v1.7' },
    session_id: str,
    trajectory_id: str,
    agent: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'version'],
      properties: {
        name: str,
        version: str,
        model_name: str,
        tool_definitions: { type: 'array' },
        extra: obj,
      },
    },
    steps: { type: 'array', minItems: 1, items: step },
    notes: str,
    final_metrics: {
      type: 'object',
      additionalProperties: false,
      properties: {
        total_prompt_tokens: int,
        total_completion_tokens: int,
        total_cached_tokens: int,
        total_cost_usd: { type: 'number' },
        total_steps: int,
        extra: obj,
      },
    },
    continued_trajectory_ref: str,
    subagent_trajectories: { type: 'array' },
    extra: obj,
  },
};

interface AtifStep {
  step_id: number;
  source: string;
  tool_calls?: { tool_call_id: string }[];
  observation?: { results: { source_call_id?: string | null }[] };
  [field: string]: unknown;
}

const AGENT_ONLY = ['model_name', 'reasoning_effort', 'reasoning_content', 'tool_calls', 'metrics'];

/** The RFC's rules beyond the shape. */
export function atifRuleErrors(doc: { steps: AtifStep[] }): string[] {
  const errors: string[] = [];
  doc.steps.forEach((s, i) => {
    if (s.step_id !== i + 1) errors.push(`steps[${i}].step_id: expected ${i + 1}`);
    if (s.source !== 'agent') {
      for (const f of AGENT_ONLY) if (f in s) errors.push(`steps[${i}].${f}: agent-only`);
    }
    if (s.source === 'user' && 'observation' in s)
      errors.push(`steps[${i}].observation: not on user steps`);
    const calls = new Set((s.tool_calls ?? []).map((c) => c.tool_call_id));
    for (const r of s.observation?.results ?? []) {
      if (r.source_call_id && !calls.has(r.source_call_id))
        errors.push(`steps[${i}]: ${r.source_call_id} is not in this step's tool_calls`);
    }
  });
  return errors;
}
