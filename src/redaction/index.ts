/** Secret redaction: framework-free; the service wires it to REDACT, REDACT_PATTERNS and metrics. */
export { KINDS, MAX_PRIVATE_KEY_BLOCK, type Span } from './patterns';
export { marker, Redactor, type OnRedact, type RedactorOptions } from './redactor';
export { RANGE_LOOKBACK, RANGE_MARGIN, redactRange, type ReadBytes } from './range';
export { createRedactStream, STREAM_CONTEXT, STREAM_STEP } from './stream';
export { decodeUtf16, encodeUtf16, utf16Of, type Utf16 } from './bytes';
