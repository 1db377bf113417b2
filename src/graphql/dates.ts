/**
 * A Date of this realm with the same instant. The DateTime scalar serializes only values that
 * pass `instanceof Date`; dates from `fs.Stats` are built by Node itself and fail that test
 * when the app runs inside a VM context (Jest's sandbox), which turned every `modifiedAt` into
 * an INTERNAL_SERVER_ERROR there. Resolvers hand the scalar dates they built themselves.
 */
export function ownDate(date: Date): Date {
  return new Date(date.getTime());
}
