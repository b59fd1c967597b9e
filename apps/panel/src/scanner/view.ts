/** Writes a {@link Verdict} into the result panel, and the offline door's status. Text goes in with `textContent` only. */
import type { DoorInfo } from '@tp/contract/access';
import type { Formats, Texts } from './i18n';
import type { DoorStatus } from './offline-door';
import type { Verdict } from './verdict';

const el = (tag: string, text: string, className?: string) => {
  const node = document.createElement(tag);
  node.textContent = text;
  if (className) node.className = className;
  return node;
};

/** Replaces the result panel's content with `verdict` and vibrates where the device can. */
export function renderVerdict(result: HTMLElement, verdict: Verdict): void {
  // A one-word verdict with a long word («ENTRADA TRANSFERIDA») is set smaller, so that a 360 px phone never
  // breaks the word in two.
  const longWord = !verdict.sentence && Math.max(...verdict.title.split(/\s+/).map((w) => w.length)) > 9;
  result.className = `result ${verdict.tone}${verdict.sentence ? ' sentence' : ''}${longWord ? ' long-word' : ''}${
    verdict.reason ? ' reason' : ''
  }`;
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

/** The offline door's status line and conflict list (offline-door.ts). */
export function renderDoorStatus(
  line: HTMLElement,
  conflictsBox: HTMLElement,
  conflictList: HTMLElement,
  status: DoorStatus,
  t: Texts,
  formats: Formats,
  nowMs: number,
): void {
  const queued = t('queued', { count: status.queued });
  const age = status.snapshotTakenAt
    ? t('listAge', { age: formats.ago(status.snapshotTakenAt, nowMs) })
    : t('listNone');
  line.hidden = false;
  line.className = `door-status ${status.online ? 'online' : 'offline'}`;
  line.dataset.online = String(status.online);
  line.textContent = [status.online ? t('online') : t('offline'), queued, age].join(' · ');
  conflictsBox.hidden = status.conflicts.length === 0;
  conflictList.replaceChildren(
    ...status.conflicts.map((c) =>
      el(
        'li',
        [c.holderName, c.ticketName || `#${c.userTicketId}`, t(`conflict_${c.reason}`), formats.time(c.scannedAt)]
          .filter(Boolean)
          .join(' · '),
      ),
    ),
  );
}

/**
 * The door's mode and zone in the page header (issue 48, GET /v1/access/door): "Entry", "Exit · VIP"; an exit door
 * is marked apart, so the staff see at a glance which way it scans.
 */
export function renderDoorMode(node: HTMLElement, info: DoorInfo, t: Texts): void {
  node.hidden = false;
  node.dataset.mode = info.mode;
  node.className = `door-mode ${info.mode}`;
  node.textContent = [info.mode === 'exit' ? t('modeExit') : t('modeEntry'), info.zone].filter(Boolean).join(' · ');
}
