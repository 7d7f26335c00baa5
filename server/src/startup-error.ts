/** An error that stops the portal from starting, whose one-line message tells what to fix. */
export class StartupError extends Error {
  override name = 'StartupError';
}
