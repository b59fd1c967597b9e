/**
 * SETTINGS (spec section 2 Settings, 4 Settings tab): tabs account and payout. The payout tab is
 * chosen by SETTINGS_TAB=ACCOUNT_VERIFICATION; switching tabs writes that parameter.
 */
import { useTranslation } from 'react-i18next';
import { SETTINGS_TAB_PAYOUT } from '@tp/contract/constants';
import { navigate, useRoute } from '../../../lib/use-route';
import { Tabs } from '../../../ui/tabs';
import { AccountTab } from './account-tab';
import { PayoutTab } from './payout-tab';

type SettingsTab = 'ACCOUNT' | 'PAYOUT';

export default function SettingsScreen() {
  const { t } = useTranslation();
  const route = useRoute();
  const tab: SettingsTab = route.settingsTab === SETTINGS_TAB_PAYOUT ? 'PAYOUT' : 'ACCOUNT';
  return (
    <div className="stack">
      <h1 className="screen-title">{t('settings.title')}</h1>
      <Tabs
        label={t('settings.title')}
        value={tab}
        onChange={(v) => navigate({ settingsTab: v === 'PAYOUT' ? SETTINGS_TAB_PAYOUT : null }, { replace: true })}
        options={[
          { value: 'ACCOUNT', label: t('settings.tab_account') },
          { value: 'PAYOUT', label: t('settings.tab_payout') },
        ]}
      />
      <div role="tabpanel">{tab === 'PAYOUT' ? <PayoutTab /> : <AccountTab />}</div>
    </div>
  );
}
