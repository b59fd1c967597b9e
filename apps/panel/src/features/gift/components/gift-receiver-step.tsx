import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Tabs } from '../../../ui/tabs';
import type { Receiver } from '../gift.validation';
import { EmailReceiver } from './email-receiver';
import { UsernameSearch } from './username-search';

/**
 * Step 2: the receiver by EMAIL or USERNAME (tabs), starting from the draft when the receiver is edited; the
 * holder's own e-mail or username (`self`) is refused here (`gift_tickets.cannot_gift_to_self`, issue 40).
 */
export function GiftReceiverStep({
  headingRef,
  ...p
}: {
  headingId: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
  tab: Receiver['kind'];
  onTab: (tab: Receiver['kind']) => void;
  draft: Receiver | null;
  assetsBaseUrl: string | undefined;
  /** The signed-in holder: their own e-mail and username are refused as receivers (issue 40). */
  self: { email: string; username: string } | undefined;
  onConfirm: (r: Receiver) => void;
}) {
  const { t } = useTranslation();
  const { tab, draft } = p;
  return (
    <section className="stack gift-receiver" aria-labelledby={p.headingId}>
      <h2 id={p.headingId} ref={headingRef} tabIndex={-1} className="section-title gift__step-title">
        {t('gift.receiver_title')}
      </h2>
      <Tabs
        label={t('gift.receiver_by')}
        value={tab}
        onChange={p.onTab}
        options={[
          { value: 'EMAIL', label: t('gift.tab_email') },
          { value: 'USERNAME', label: t('gift.tab_username') },
        ]}
      />
      <div role="tabpanel" aria-label={tab === 'EMAIL' ? t('gift.tab_email') : t('gift.tab_username')}>
        {tab === 'EMAIL' ? (
          <EmailReceiver
            initial={draft?.kind === 'EMAIL' ? draft.value : undefined}
            ownEmail={p.self?.email}
            onConfirm={(email) => p.onConfirm({ kind: 'EMAIL', value: email })}
          />
        ) : (
          <UsernameSearch
            assetsBaseUrl={p.assetsBaseUrl}
            initial={draft?.kind === 'USERNAME' ? { username: draft.value, picture: draft.picture } : null}
            ownUsername={p.self?.username}
            onConfirm={(u) => p.onConfirm({ kind: 'USERNAME', value: u.username, picture: u.picture })}
          />
        )}
      </div>
    </section>
  );
}
