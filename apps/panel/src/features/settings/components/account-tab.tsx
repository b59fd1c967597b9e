/**
 * Settings, account tab (spec sections 2 Settings, 5): avatar upload, nickname, first and last name, and the
 * phone number (added or changed in a modal showing the current and the new one). Each save button is
 * disabled unless its field changed and is valid; every change refreshes USER, so the header avatar and the
 * hub header update. Below, "E-mails": the event reminders switch (issue 41 point 9), "Passkeys" (issue 47), and
 * "Your data": export, sign out of other devices, delete the account (issue 13).
 */
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useUser } from '../../../lib/queries';
import { Skeleton, ErrorState } from '../../../ui/bits';
import { AccountAvatar } from './account-avatar';
import { AccountNickname } from './account-nickname';
import { AccountName } from './account-name';
import { AccountPhone } from './account-phone';
import { AccountData } from './account-data';
import { AccountReminders } from './account-reminders';
import '../account.css';

// Passkeys (issue 47) come with texts of their own (the `passkeys` catalogue), loaded with the section.
const AccountPasskeys = lazy(() => import('./account-passkeys').then((m) => m.withTexts()));

export function AccountTab() {
  const { t } = useTranslation();
  const user = useUser();
  if (user.isLoading) {
    return (
      <div className="stack account" aria-busy="true">
        <Skeleton height={96} radius={14} />
        <Skeleton height={120} radius={14} />
        <Skeleton height={180} radius={14} />
        <Skeleton height={90} radius={14} />
      </div>
    );
  }
  if (user.isError || !user.data) {
    return <ErrorState message={t('api.profile.internal_error')} onRetry={user.refetch} />;
  }
  const u = user.data;
  return (
    <div className="stack account">
      <AccountAvatar user={u} />
      <AccountNickname key={`n-${u.nickname}`} user={u} />
      <AccountName key={`g-${u.givenName}-${u.familyName}`} user={u} />
      <AccountPhone user={u} />
      <AccountReminders user={u} />
      <Suspense fallback={<Skeleton height={140} radius={14} />}>
        <AccountPasskeys />
      </Suspense>
      <AccountData />
    </div>
  );
}
