/**
 * The test kit's old address, kept only for test/bench-operations.test.ts and test/stack-floor.test.ts
 * until they move to test/integration/ (their imports then name ../helpers/kit.ts, and this file goes).
 */
export { useKit, type Kit } from './helpers/kit.ts';
