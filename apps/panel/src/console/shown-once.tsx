import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../ui/button';

/**
 * A secret the API shows once (an API key, a door key, a webhook's signing secret): the value, a copy button, and
 * the warning that it will not be shown again. `label` names what it is.
 */
export function ShownOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="card stack shown-once" role="status">
      <strong>{label}</strong>
      <code data-testid="shown-once" className="secret">
        {value}
      </code>
      <p className="muted">{t('console.keys.shown_once')}</p>
      <div className="row">
        <CopyButton value={value} label={t('console.keys.copy')} />
        <Button variant="ghost" className="btn--small" onClick={onDone}>
          {t('console.keys.done')}
        </Button>
      </div>
    </div>
  );
}

/** A small button that copies `value` to the clipboard: `label`, then "Copied" once it is there. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant="secondary"
      className="btn--small"
      onClick={() =>
        void navigator.clipboard.writeText(value).then(
          () => setCopied(true),
          () => setCopied(false),
        )
      }
    >
      {copied ? t('console.keys.copied') : label}
    </Button>
  );
}
