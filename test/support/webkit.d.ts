/** One MiniBrowser under WebKitWebDriver (test/support/webkit.js). */
export interface WebKit {
  /** WebKitGTK's version, as the driver reports it. */
  version: string;
  /** A W3C WebDriver command relative to the session (`/url`, `/actions`, …); resolves with its `value`. */
  command<T = unknown>(method: string, path: string, body?: unknown, timeout?: number): Promise<T>;
  execute<T = unknown>(script: string, args?: unknown[]): Promise<T>;
  executeAsync<T = unknown>(script: string, args?: unknown[]): Promise<T>;
  navigate(url: string): Promise<unknown>;
  setWindowSize(size: { width: number; height: number }): Promise<unknown>;
  actions(actions: unknown[]): Promise<unknown>;
  releaseActions(): Promise<unknown>;
  screenshot(): Promise<Buffer>;
  close(): Promise<void>;
}

export declare const WEBKIT_DRIVER: string;
export declare const MINIBROWSER: string | undefined;
export declare const webkitMissing: () => string | undefined;
export declare class WebDriverError extends Error {
  code: string | undefined;
}
export declare const startWebKit: (options?: { width?: number; height?: number; bare?: boolean }) => Promise<WebKit>;
export declare const WEBDRIVER_KEYS: Record<string, string>;
export declare const webdriverKey: (name: string) => string;
