/** A golden file or directory that cannot be read. The message is one line naming the path. */
export class GoldenError extends Error {
  override readonly name = 'GoldenError';
}
