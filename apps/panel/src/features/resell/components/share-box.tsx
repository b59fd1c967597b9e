/**
 * Sharing a listing (spec sections 2 Resell and Share links): copy the link; on screens up to 480px the
 * device's native share sheet; otherwise a menu with Facebook, Twitter (with the product's via handle)
 * and Mail, each carrying the link and the title.
 */
import { useId, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import { usePanelConfig } from '../../../lib/queries';
import { copyText } from '../../../lib/clipboard';
import { Button } from '../../../ui/button';
import { CopyIcon } from '../../../ui/icons';
import { useMenu } from '../../../ui/use-menu';
import { shareLinks } from '../resell.rules';

/** Narrow-screen breakpoint of spec section 9. */
const NARROW = '(max-width: 480.99px)';
const narrowMedia = typeof window !== 'undefined' ? window.matchMedia?.(NARROW) : undefined;

/** True on screens up to 480px. */
export function useNarrow(): boolean {
  return useSyncExternalStore(
    (l) => {
      narrowMedia?.addEventListener?.('change', l);
      return () => narrowMedia?.removeEventListener?.('change', l);
    },
    () => Boolean(narrowMedia?.matches),
  );
}

/** Copies `url` and tells the user. */
export function useCopyLink() {
  const { t } = useTranslation();
  return async (url: string) => {
    if (await copyText(url)) toast.success(t('resell.link_copied'), { toastId: 'resell-copied', action: copyText });
    else toast.error(t('request_failed'), { action: copyText });
  };
}

/** The Share button: native share on narrow screens (when the browser has it), else a menu of networks. */
export function ShareButton(props: {
  url: string;
  title: string;
  label?: string;
  small?: boolean;
  withCopy?: boolean;
}) {
  const { t } = useTranslation();
  const copy = useCopyLink();
  const config = usePanelConfig();
  const narrow = useNarrow();
  const id = useId();
  const { open, setOpen, root, trigger, itemRef, onMenuKey } = useMenu();

  const links = shareLinks(props.url, props.title, config?.twitterVia ?? '');
  const native = narrow && typeof navigator.share === 'function';
  const onClick = async () => {
    if (!native) {
      setOpen((v) => !v);
      return;
    }
    try {
      await navigator.share({ title: props.title, text: props.title, url: props.url });
    } catch {
      /* cancelled */
    }
  };
  const entries: [string, string][] = [
    ['facebook', links.facebook],
    ['twitter', links.twitter],
    ['mail', links.mail],
  ];
  return (
    <div className="resell-share" ref={root}>
      <Button
        ref={trigger}
        variant="secondary"
        className={props.small ? 'btn--small' : ''}
        aria-haspopup={native ? undefined : 'menu'}
        aria-expanded={native ? undefined : open}
        aria-controls={open ? `${id}-menu` : undefined}
        onClick={() => void onClick()}
      >
        {props.label ?? t('resell.share')}
      </Button>
      {open && (
        <div
          id={`${id}-menu`}
          role="menu"
          aria-label={t('resell.share_on')}
          className="resell-share__menu"
          tabIndex={-1}
          onKeyDown={onMenuKey}
        >
          {props.withCopy && (
            <button
              type="button"
              role="menuitem"
              ref={itemRef(0)}
              className="resell-share__item"
              onClick={() => {
                setOpen(false);
                void copy(props.url);
              }}
            >
              {t('resell.copy_link')}
            </button>
          )}
          {entries.map(([name, href], i) => (
            <a
              key={name}
              ref={itemRef(i + (props.withCopy ? 1 : 0))}
              role="menuitem"
              href={href}
              target={name === 'mail' ? undefined : '_blank'}
              rel="noopener noreferrer"
              className="resell-share__item"
              onClick={() => setOpen(false)}
            >
              {t(`resell.share_${name}`)}
            </a>
          ))}
        </div>
      )}
    </div>
  );
}

/** The share box of the success screen: the link, Copy link and Share. At most 640px wide. */
export function ShareBox(props: { url: string; title: string }) {
  const { t } = useTranslation();
  const copy = useCopyLink();
  const id = useId();
  return (
    <section className="box resell-sharebox" aria-labelledby={`${id}-t`}>
      <h2 id={`${id}-t`} className="section-title">
        {t('resell.share_title')}
      </h2>
      <p className="muted small">{t('resell.share_text')}</p>
      <label htmlFor={`${id}-link`} className="visually-hidden">
        {t('resell.share_link')}
      </label>
      <input
        id={`${id}-link`}
        className="field__input resell-sharebox__link"
        readOnly
        value={props.url}
        onFocus={(e) => e.currentTarget.select()}
      />
      <div className="resell-actions">
        <Button onClick={() => void copy(props.url)}>
          <CopyIcon />
          {t('resell.copy_link')}
        </Button>
        <ShareButton url={props.url} title={props.title} />
      </div>
    </section>
  );
}
