/**
 * Runs `fn` with `Object.prototype[name]` set to `value`, enumerable, as prototype pollution
 * sets it, and deletes it again however `fn` ends: for the tests of what a generated validator
 * reads from a parsed value's prototype chain (`validateParsed`, the wide member loop).
 */
export function polluted<T>(name: string, value: unknown, fn: () => T): T {
  const prototype = Object.prototype as Record<string, unknown>;
  prototype[name] = value;
  try {
    return fn();
  } finally {
    delete prototype[name];
  }
}
