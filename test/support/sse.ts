/**
 * Reads a Server-Sent Events body the way a browser's `EventSource` does, block by block:
 * events (`event`, `id`, `data`, `retry`) and comments, for tests and benchmarks.
 */
export interface SseBlock {
  event?: string;
  id?: string;
  data?: string;
  retry?: number;
  /** The comment lines of a block that holds only comments (heartbeats). */
  comment?: string;
}

export interface SseReader {
  /** The next block, or undefined once the stream ended; rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseBlock | undefined>;
  /** The next `event:` block (comments skipped), or undefined once the stream ended. */
  nextEvent(timeoutMs?: number): Promise<SseBlock | undefined>;
  close(): Promise<void>;
}

const parseBlock = (text: string): SseBlock => {
  const block: SseBlock = {};
  const data: string[] = [];
  const comments: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line.startsWith(':')) {
      comments.push(line.slice(1).trim());
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') block.event = value;
    else if (field === 'id') block.id = value;
    else if (field === 'data') data.push(value);
    else if (field === 'retry') block.retry = Number(value);
  }
  if (data.length) block.data = data.join('\n');
  if (comments.length && !block.event && block.data === undefined) block.comment = comments.join('\n');
  return block;
};

export const readSse = (body: ReadableStream<Uint8Array>): SseReader => {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = false;
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;

  const next = async (timeoutMs = 5000): Promise<SseBlock | undefined> => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const boundary = /\r\n\r\n|\n\n|\r\r/.exec(buffer);
      if (boundary) {
        const text = buffer.slice(0, boundary.index);
        buffer = buffer.slice(boundary.index + boundary[0].length);
        return parseBlock(text);
      }
      if (ended) return undefined;
      pending ??= reader.read();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const result = await Promise.race([
        pending,
        new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), Math.max(0, end - Date.now())))),
      ]).finally(() => clearTimeout(timer));
      if (result === 'timeout') throw new Error(`no SSE block within ${timeoutMs} ms (buffered: ${JSON.stringify(buffer)})`);
      pending = undefined;
      if (result.done) ended = true;
      else buffer += decoder.decode(result.value, { stream: true });
    }
  };

  return {
    next,
    nextEvent: async (timeoutMs = 5000) => {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const block = await next(Math.max(1, end - Date.now()));
        if (!block || block.event !== undefined || block.data !== undefined) return block;
      }
    },
    close: async () => {
      await reader.cancel().catch(() => undefined);
    },
  };
};
