/** Files above this size are reported instead of parsed. */
export const MAX_FILE_BYTES = 1024 * 1024;
/** Deeper nesting than any real workflow needs; beyond it the file is reported, not walked. */
export const MAX_DEPTH = 64;
/**
 * Upper bound on the node count a file may expand to through aliases (each alias counts the nodes it
 * refers to). The model shares aliased nodes, so this bounds what a walk that does not dedupe could do.
 */
export const MAX_EXPANDED_NODES = 250_000;
