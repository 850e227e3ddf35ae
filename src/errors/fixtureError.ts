/** A fixture that cannot be loaded. The message is one line naming the file and what is wrong. */
export class FixtureError extends Error {
  override readonly name = 'FixtureError';
}
