/**
 * "E-mails" on the account tab (issue 41 point 9): the event reminders switch, saved as it changes (PUT
 * /auth/reminders). It shows what the reminder's unsubscribe link did: a holder who unsubscribed from a mail sees it
 * off here and can turn it back on. Sign-in codes, tickets and receipts are not optional and are not listed.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '@tp/contract';
import { errorKey } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { setReminders, useSetReminders } from '../api/profile-reminders.api';

export function AccountReminders(props: { user: User }) {
  const { t } = useTranslation();
  const id = useId();
  const save = useSetReminders();
  // While saving, the switch shows the value asked for.
  const on = save.isPending ? save.variables : props.user.reminders;
  const change = (reminders: boolean) =>
    save.mutate(reminders, {
      onSuccess: () =>
        toast.success(t(reminders ? 'account_reminders.on' : 'account_reminders.off'), { action: setReminders }),
      onError: (err) => toast.error(t(errorKey(err)), { action: setReminders }),
    });
  return (
    <section className="box account-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="section-title">
        {t('account_reminders.title')}
      </h2>
      <label className="account-switch checkbox-label">
        <input
          type="checkbox"
          checked={on}
          disabled={save.isPending}
          aria-describedby={`${id}-help`}
          onChange={(e) => change(e.target.checked)}
        />
        <span>{t('account_reminders.label')}</span>
      </label>
      <p id={`${id}-help`} className="muted account-switch__help">
        {t('account_reminders.help')}
      </p>
    </section>
  );
}
