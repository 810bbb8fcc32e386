/**
 * `String.prototype.charCodeAt`, for loops that read a string one character at a time: `charCodeAt.call(text, i)`.
 *
 * The engine's strings come in many of V8's representations (a file's text, slices of it, texts joined with `+`,
 * literals, two-byte strings where a character needs it), each with a map of its own. `text.charCodeAt(i)` looks
 * the method up on the string at every call, and past four maps that lookup goes megamorphic: TurboFan then calls
 * the generic lookup and the method for every character. Through `call` the function is known from the call's own
 * feedback whatever the string, and TurboFan inlines the character read. Over the engine bench's slowest files the
 * megamorphic lookups were about 0.9 M instructions a scan, a third of them `splitPipelines`' (docs/performance.md).
 */
export const charCodeAt = String.prototype.charCodeAt;
