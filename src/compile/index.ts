/**
 * gpt-address/compile: the build-time entry (Node).
 *
 * @module
 */
export {};
