/**
 * A Node readable (an upstream answer, a request body) as a web `ReadableStream`, written by
 * hand rather than with `Readable.toWeb`: a reader that cancels (a handler that answered
 * without reading the body) made `toWeb`'s controller throw ERR_INVALID_STATE on the next
 * chunk, an uncaught exception. Events rather than the readable's async iterator, which cost a
 * generator and several listeners per call (bench/profile.ts). Chunks pass on as they arrive;
 * the readable is paused while the reader lags.
 */
import type { Readable } from 'node:stream';

export interface NodeStreamOptions {
  /** The error when the readable closes before its end. */
  cut: () => Error;
  /** Called with each chunk's size before it is passed on; an error it returns ends the stream with it. */
  check?: (bytes: number) => Error | undefined;
  /** What to do with the readable when the reader cancels: `destroy` it, or `drain` it into nothing (a kept-alive connection). */
  onCancel: 'destroy' | 'drain';
  /** Ends the stream with the signal's reason when it aborts (a deadline), leaving the readable to flow into nothing. */
  signal?: AbortSignal;
}

export const nodeStream = (readable: Readable, options: NodeStreamOptions): ReadableStream<Uint8Array> => {
  let detach = (): void => undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const onData = (chunk: Buffer) => {
        const refused = options.check?.(chunk.byteLength);
        if (refused) {
          detach();
          controller.error(refused);
          readable.resume();
          return;
        }
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) readable.pause();
      };
      const onEnd = () => {
        detach();
        controller.close();
      };
      const onError = (error: Error) => {
        detach();
        controller.error(error);
      };
      const onClose = () => {
        if (readable.readableEnded) return;
        detach();
        controller.error(options.cut());
      };
      const onAbort = () => {
        detach();
        controller.error(options.signal?.reason);
        readable.resume();
      };
      detach = () => {
        readable.off('data', onData);
        readable.off('end', onEnd);
        readable.off('error', onError);
        readable.off('close', onClose);
        options.signal?.removeEventListener('abort', onAbort);
      };
      readable.on('data', onData);
      readable.on('end', onEnd);
      readable.on('error', onError);
      readable.on('close', onClose);
      options.signal?.addEventListener('abort', onAbort, { once: true });
    },
    pull() {
      readable.resume();
    },
    cancel() {
      detach();
      if (options.onCancel === 'destroy') readable.destroy();
      else readable.resume();
    },
  });
};
