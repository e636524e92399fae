/** Waiting in tests for what a real component does in its own time: polled, with a deadline that names what did not come. */

/** Polls `probe` every 10 ms until it answers something other than `undefined` or `false`; fails after `timeoutMs` naming `what`. */
export const waitFor = async <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 5000): Promise<T> => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};
