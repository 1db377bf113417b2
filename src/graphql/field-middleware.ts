import type { FieldMiddleware } from '@nestjs/graphql';
import { limitsFieldMiddleware } from './limits/field-limits.middleware';
import { redactionFieldMiddleware } from './redaction.middleware';

/**
 * Field middleware run around every non-root field resolver (Nest's
 * `buildSchemaOptions.fieldMiddleware`), first entry outermost. The limits middleware comes
 * first so that it counts the bytes of the value the client finally gets: middleware that
 * rewrites values (redaction) belongs after it.
 */
export const fieldMiddleware: FieldMiddleware[] = [limitsFieldMiddleware, redactionFieldMiddleware];
