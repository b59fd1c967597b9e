/** Writes a {@link Verdict} into the result panel. Text goes in with `textContent` only. */
import type { Verdict } from './verdict';

const el = (tag: string, text: string, className?: string) => {
  const node = document.createElement(tag);
  node.textContent = text;
  if (className) node.className = className;
  return node;
};

/** Replaces the result panel's content with `verdict` and vibrates where the device can. */
export function renderVerdict(result: HTMLElement, verdict: Verdict): void {
  result.className = `result ${verdict.tone}`;
  result.dataset.tone = verdict.tone;
  const nodes: HTMLElement[] = [el('p', verdict.title, 'verdict')];
  if (verdict.detail) nodes.push(el('p', verdict.detail, 'detail'));
  if (verdict.holder) nodes.push(el('p', verdict.holder, 'holder'));
  for (const list of verdict.lists) {
    if (list.heading) nodes.push(el('p', list.heading, 'sub'));
    const ul = document.createElement('ul');
    ul.append(...list.items.map((item) => el('li', item)));
    nodes.push(ul);
  }
  result.replaceChildren(...nodes);
  if (verdict.buzz !== undefined) {
    try {
      navigator.vibrate?.(verdict.buzz);
    } catch {
      // Vibration is a nicety; some browsers throw without a user gesture.
    }
  }
}
