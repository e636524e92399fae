/**
 * Copying a value for the payer. The Clipboard API first; where it is missing or refused
 * (iOS in-app browsers, insecure pages, a denied permission) the visible text is selected
 * instead, so the payer can copy it with the device's own menu.
 */

export type CopyOutcome = 'copied' | 'selected' | 'failed';

/**
 * Selects the whole text of `node`, which may be inside a shadow root. The document's selection
 * with `setBaseAndExtent` is the one way that works in all three engines: WebKit ignores a range
 * added with `addRange` inside a shadow root (the selection stays empty), and only Chromium gives
 * a shadow root a `getSelection()` of its own.
 */
export const selectText = (node: Node): boolean => {
  const selection = document.getSelection();
  if (!selection) return false;
  selection.setBaseAndExtent(node, 0, node, node.childNodes.length);
  return selection.rangeCount > 0 && selection.toString() !== '';
};

/**
 * Writes `value` to the clipboard, else selects `fallback`'s text. `writeText` is called in the
 * same turn as the call (nothing is awaited before it), so a click's user activation still
 * holds: WebKit refuses a write that comes after an `await` (adyen-web#3313, iOS 18.4).
 */
export const copyText = async (value: string, fallback: Node | null | undefined): Promise<CopyOutcome> => {
  try {
    if (typeof navigator.clipboard?.writeText === 'function') {
      await navigator.clipboard.writeText(value);
      return 'copied';
    }
  } catch {
    // refused: fall back to selecting the text
  }
  return fallback && selectText(fallback) ? 'selected' : 'failed';
};
