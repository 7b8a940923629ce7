/** Polls `probe` until it answers something truthy, and answers that; fails after `timeoutMs`. */
export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 10_000, describe?: () => Promise<string>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A probe that fails (a busy embedded database) is simply asked again.
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waitFor timed out${describe ? `: ${await describe()}` : ''}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
