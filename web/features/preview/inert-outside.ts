/**
 * Makes everything of `frame` inert except `keep` and its ancestors (the preview covers the
 * window: Tab and screen readers stay in it, while it stays inside the page's `main`). Returns
 * the undoing, which only touches the elements it made inert.
 */
export function inertOutside(keep: HTMLElement, frame: Element): () => void {
  const made: Element[] = [];
  for (let node: Element = keep; node !== frame && node.parentElement; node = node.parentElement) {
    for (const sibling of node.parentElement.children) {
      if (sibling === node || sibling.hasAttribute('inert')) continue;
      sibling.setAttribute('inert', '');
      made.push(sibling);
    }
  }
  return () => {
    for (const element of made) element.removeAttribute('inert');
  };
}
