/** The row atop an event's view: Back (to the list it came from), then the view's heading and buttons. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../ui/button';

export function BackRow({ onBack, children }: { onBack: () => void; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="row">
      <Button variant="ghost" className="btn--small" onClick={onBack}>
        {t('console.back')}
      </Button>
      {children}
    </div>
  );
}
