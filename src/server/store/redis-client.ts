/**
 * The Redis store's connections (redis.ts): the part of a node-redis client the store uses,
 * one command with its time limit, and closing a connection. Imports nothing.
 */

/** The part of a node-redis client the store uses. */
export interface RedisClientLike {
  readonly isOpen: boolean;
  readonly isReady: boolean;
  connect(): Promise<unknown>;
  duplicate(): RedisClientLike;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  set(key: string, value: string, options?: { condition?: 'NX'; expiration?: { type: 'PX'; value: number } }): Promise<string | null>;
  get(key: string): Promise<string | null>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  configGet(parameter: string): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
  destroy?(): void;
}

/** Runs one command on the store's command connection. */
export type Command = <T>(run: (client: RedisClientLike) => Promise<T>) => Promise<T>;

/**
 * One command on the connection `connected` makes, failing after `commandTimeoutMs`; until the
 * connection is first ready (`firstReady`) the command waits for it within that time.
 */
export const commandWith =
  (connected: Promise<{ client: RedisClientLike; firstReady?: Promise<void> }>, commandTimeoutMs: number): Command =>
  async <T>(run: (client: RedisClientLike) => Promise<T>): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`redis: no answer within ${commandTimeoutMs} ms`)), commandTimeoutMs);
    });
    let work: Promise<T> | undefined;
    try {
      const { client, firstReady } = await connected;
      if (firstReady && !client.isReady) await Promise.race([firstReady, deadline]);
      work = run(client);
      return await Promise.race([work, deadline]);
    } finally {
      clearTimeout(timer);
      deadline.catch(() => undefined);
      work?.catch(() => undefined);
    }
  };

/** Closes a connection: politely when Redis answers, at once when it does not. */
export const shut = async (client: RedisClientLike): Promise<void> => {
  if (!client.isReady) {
    if (client.isOpen) client.destroy?.();
    return;
  }
  try {
    if (client.close) await client.close();
    else await client.quit?.();
  } catch {
    client.destroy?.();
  }
};
