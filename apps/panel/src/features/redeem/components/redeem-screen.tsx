/**
 * REDEEM (spec sections 2 Redeem, 4 Redeem, 5, 8): title, subtitle, one code input (placeholder
 * 'your code') and one redeem button, disabled while the code is empty. On submit the button loads;
 * success replaces the form with a success view (heading, description, logo, name); failure keeps the
 * form and shows the translated server message (default request_failed).
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import { errorKey } from '../../../lib/api-client';
import { assetUrl } from '../../../lib/format';
import { usePanelConfig } from '../../../lib/queries';
import { navigate } from '../../../lib/use-route';
import { Button } from '../../../ui/button';
import { Field, touchedError } from '../../../ui/field';
import { TicketIcon } from '../../../ui/icons';
import { redeemCode, useRedeem, type RedeemResult } from '../api/redeem.api';
import { redeemSchema, type RedeemForm } from '../redeem.validation';
import '../redeem.css';
import { ScreenHeader } from '../../../ui/screen-header';
import { SuccessSection } from '../../../ui/success-heading';

function SuccessView(props: { result: RedeemResult; onAgain: () => void }) {
  const { t } = useTranslation();
  const config = usePanelConfig();
  const logo = assetUrl(props.result.logo, config?.assetsBaseUrl);
  return (
    <SuccessSection className="redeem__success" headingClassName="screen-title" title={t('redeem.success_title')}>
      <p className="muted">{t('redeem.success_text')}</p>
      {logo ? (
        <img className="redeem__logo" src={logo} alt="" width={166} height={166} />
      ) : (
        <span className="redeem__logo">
          <TicketIcon />
        </span>
      )}
      <p className="redeem__name">{props.result.name}</p>
      <div className="redeem__actions">
        <Button onClick={() => navigate({ tab: 'MY_TICKET', userTicketId: null, ticketName: null })}>
          {t('redeem.view_tickets')}
        </Button>
        <Button variant="secondary" onClick={props.onAgain}>
          {t('redeem.again')}
        </Button>
      </div>
    </SuccessSection>
  );
}

export default function RedeemScreen() {
  const { t } = useTranslation();
  const redeem = useRedeem();
  const [result, setResult] = useState<RedeemResult | null>(null);
  // The server's (translated) refusal, shown in the code field's error slot until the code changes (issue 13).
  const [refused, setRefused] = useState<string | null>(null);
  const { register, handleSubmit, formState, reset } = useForm<RedeemForm>({
    resolver: zodResolver(redeemSchema),
    mode: 'onTouched',
    defaultValues: { code: '' },
  });
  const onSubmit = handleSubmit(async ({ code }) => {
    try {
      setResult(await redeem.mutateAsync(code.trim()));
      reset();
    } catch (err) {
      console.error('redeem failed', err);
      const message = t(errorKey(err));
      setRefused(message);
      toast.error(message, { action: redeemCode });
    }
  });
  const err = touchedError(t, formState, 'code') ?? refused ?? undefined;
  return (
    <div className="stack redeem">
      <ScreenHeader title={t('redeem.title')} subtitle={t('redeem.subtitle')} />
      {result ? (
        <SuccessView result={result} onAgain={() => setResult(null)} />
      ) : (
        <form className="redeem__form" noValidate onSubmit={onSubmit}>
          <Field
            label={t('redeem.code')}
            placeholder={t('redeem.placeholder')}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            error={err}
            {...register('code', { onChange: () => setRefused(null) })}
          />
          <Button type="submit" disabled={!formState.isValid} loading={redeem.isPending}>
            {t('redeem.submit')}
          </Button>
          <p className="muted small">{t('redeem.help')}</p>
        </form>
      )}
    </div>
  );
}
