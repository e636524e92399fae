/**
 * Copying a value for the payer. The Clipboard API first; where it is missing or refused
 * (iOS in-app browsers, insecure pages, a denied permission) the visible text is selected
 * instead, so the payer can copy it with the device's own menu.
 */

export type CopyOutcome = 'copied' | 'selected' | 'failed';

/** Selects the whole text of `node`, which may be inside a shadow root. */
export const selectText = (node: Node): boolean => {
  const root = node.getRootNode() as (Document | ShadowRoot) & { getSelection?: () => Selection | null };
  // Chromium gives a shadow root its own selection; elsewhere the document's reaches into it.
  const selection = root.getSelection?.() ?? document.getSelection();
  if (!selection) return false;
  const range = document.createRange();
  range.selectNodeContents(node);
  selection.removeAllRanges();
  selection.addRange(range);
  return true;
};

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
