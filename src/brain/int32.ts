/**
 * The API's Int is a signed 32-bit integer (GraphQL): a number read from a file outside this
 * range (or not whole) cannot be answered as one, so the store reads it as absent or refuses
 * the record, never hands it to the schema.
 */
export const MIN_INT32 = -2147483648;
export const MAX_INT32 = 2147483647;

export function isInt32(value: unknown): value is number {
  return (
    Number.isInteger(value) && (value as number) >= MIN_INT32 && (value as number) <= MAX_INT32
  );
}
