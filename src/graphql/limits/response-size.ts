import {
  getNullableType,
  isLeafType,
  isListType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
} from 'graphql';

/**
 * Bytes a value takes in the JSON response, counted without serializing it (a 30 MiB string
 * is scanned, not copied). Exact for JSON data: what `JSON.stringify` would write, in UTF-8.
 */

/** `JSON.stringify(s)` in UTF-8 bytes: quotes, escapes and lone surrogates included. */
export function jsonStringBytes(s: string): number {
  let extra = 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20) {
      // \b \t \n \f \r are two characters; other controls are \u00XX.
      extra += c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 1 : 5;
    } else if (c === 0x22 || c === 0x5c) {
      extra += 1;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const pair =
        c <= 0xdbff &&
        i + 1 < s.length &&
        s.charCodeAt(i + 1) >= 0xdc00 &&
        s.charCodeAt(i + 1) <= 0xdfff;
      if (pair) i++;
      else extra += 3; // written as \uXXXX (6 bytes); byteLength counts U+FFFD (3)
    }
  }
  return Buffer.byteLength(s, 'utf8') + extra;
}

/** `JSON.stringify(value)` in UTF-8 bytes, for JSON-like data (toJSON honoured). */
export function jsonBytes(value: unknown, depth = 0): number {
  if (depth > 1000) return 0; // deeper than JSON.stringify would manage: left to the final check
  switch (typeof value) {
    case 'string':
      return jsonStringBytes(value);
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object': {
      if (value === null) return 4;
      const withJson = value as { toJSON?: () => unknown };
      if (typeof withJson.toJSON === 'function') return jsonBytes(withJson.toJSON(), depth + 1);
      if (Array.isArray(value)) {
        let n = 1 + Math.max(1, value.length);
        for (const item of value) {
          const t = typeof item;
          n +=
            t === 'undefined' || t === 'function' || t === 'symbol'
              ? 4
              : jsonBytes(item, depth + 1);
        }
        return n;
      }
      let n = 1;
      let members = 0;
      for (const [key, item] of Object.entries(value)) {
        const t = typeof item;
        if (t === 'undefined' || t === 'function' || t === 'symbol') continue;
        n += jsonStringBytes(key) + 1 + jsonBytes(item, depth + 1) + 1;
        members++;
      }
      return members === 0 ? 2 : n;
    }
    case 'undefined':
    case 'function':
    case 'symbol':
    case 'bigint':
      return 0; // not written (JSON.stringify throws on a bigint: left to the final check)
  }
}

const NUMERIC = new Set(['Int', 'Float']);
const TEXTUAL = new Set(['String', 'ID']);

/**
 * Bytes a resolved value adds to the response under its type: a leaf as serialized, a list's
 * brackets and separators, an object's opening brace (its fields count their own bytes).
 */
export function resolvedBytes(type: GraphQLOutputType, value: unknown): number {
  if (value === null || value === undefined) return 4;
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    if (!Array.isArray(value)) return 0;
    let n = 1 + Math.max(1, value.length);
    for (const item of value) n += resolvedBytes(nullable.ofType, item);
    return n;
  }
  if (isLeafType(nullable)) {
    // The built-in scalars write a valid value as is, and DateTime as its ISO string: counted
    // without serializing it twice (once here, once by graphql-js) on every field.
    if (typeof value === 'number' && Number.isFinite(value) && NUMERIC.has(nullable.name)) {
      return String(value).length;
    }
    if (typeof value === 'string' && TEXTUAL.has(nullable.name)) return jsonStringBytes(value);
    if (typeof value === 'boolean' && nullable.name === 'Boolean') return value ? 4 : 5;
    if (value instanceof Date && nullable.name === 'DateTime' && !Number.isNaN(value.getTime())) {
      return value.toISOString().length + 2;
    }
    try {
      return jsonBytes(nullable.serialize(value));
    } catch {
      return 0; // graphql-js reports the serialization error itself
    }
  }
  return 1;
}

/**
 * What a field adds to the response: `"key":`, its value, and one separator (the following
 * comma or the closing brace). Summed over fields this never exceeds the serialized response:
 * root fields, introspection and `errors` are not counted here (the final check sees them).
 */
export function fieldBytes(info: GraphQLResolveInfo, value: unknown): number {
  const key = info.path.key;
  const keyBytes = typeof key === 'string' ? jsonStringBytes(key) + 1 : 0;
  return keyBytes + resolvedBytes(info.returnType, value) + 1;
}
