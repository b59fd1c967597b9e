/**
 * The card component of spec section 3: image, title, price, date, venue, currencySymbol, actions (icon and
 * label), variant (default or solid), selected, isEditable and an edit callback. `children` holds extra
 * controls (the swap count stepper). Prices are major units, shown with two decimals.
 */
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../lib/format';
import { Thumb } from '../../../ui/thumb';

export interface CardAction {
  icon?: ComponentType;
  label: string;
  onClick: () => void;
  disabled?: boolean;
  busy?: boolean;
}

export interface SwapCardProps {
  image?: string | null;
  title: string;
  subtitle?: string;
  price?: number;
  currencySymbol?: string;
  /** ISO 4217 code the price is written with. */
  currencyCode?: string;
  date?: string;
  venue?: string;
  actions?: CardAction[];
  variant?: 'default' | 'solid';
  selected?: boolean;
  isEditable?: boolean;
  onEdit?: () => void;
  children?: ReactNode;
  /** Extra line under the price (stock left, price difference). */
  note?: ReactNode;
}

export function SwapCard(p: SwapCardProps) {
  const { t } = useTranslation();
  return (
    <article
      className={`box swap-card swap-card--${p.variant ?? 'default'} ${p.selected ? 'swap-card--selected' : ''}`}
      aria-label={p.subtitle ? `${p.title}, ${p.subtitle}` : p.title}
      aria-current={p.selected || undefined}
    >
      <div className="swap-card__main">
        <Thumb src={p.image} size={64} />
        <div className="swap-card__body">
          <h3 className="swap-card__title">{p.title}</h3>
          {p.subtitle && <p className="swap-card__sub">{p.subtitle}</p>}
          {p.date && <p className="swap-card__meta">{p.date}</p>}
          {p.venue && <p className="swap-card__meta">{p.venue}</p>}
          {p.price !== undefined && <p className="swap-card__price">{formatMoney(p.price, p.currencyCode ?? '')}</p>}
          {p.note && <p className="swap-card__note">{p.note}</p>}
        </div>
        {p.isEditable && p.onEdit && (
          <button type="button" className="link swap-card__edit" onClick={p.onEdit}>
            {t('swap.edit')}
          </button>
        )}
      </div>
      {p.children}
      {p.actions && p.actions.length > 0 && (
        <div className="swap-card__actions">
          {p.actions.map(({ icon: Icon, label, onClick, disabled, busy }) => (
            <button
              key={label}
              type="button"
              className="btn btn--secondary btn--small"
              onClick={onClick}
              disabled={disabled || busy}
              aria-busy={busy || undefined}
            >
              {busy ? <span className="spinner" aria-hidden="true" /> : Icon && <Icon />}
              <span>{label}</span>
            </button>
          ))}
        </div>
      )}
    </article>
  );
}
