/**
 * Receiver by username (spec sections 2 Gift, 5, 9): a combobox whose text is searched after
 * USERNAME_SEARCH_DEBOUNCE_MS (500 ms) of quiet; the suggestions listbox (max height 400 px) shows
 * each username (name plus muted #suffix) and picture, is open while typing and closes on choice.
 * Confirm is disabled until a user is picked. The holder's own username (`ownUsername`) is never offered (the
 * server leaves it out too); typed in full it is answered `gift_tickets.cannot_gift_to_self` (issue 40).
 */
import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { USERNAME_SEARCH_DEBOUNCE_MS } from '@tp/contract/constants';
import { nicknameOf } from '@tp/contract/profile';
import { assetUrl } from '../../../lib/format';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { Avatar } from '../../../ui/avatar';
import { Button } from '../../../ui/button';
import { Listbox, listboxKey, optionId } from '../../../ui/listbox';
import { Username } from '../../../ui/username';
import { useUserSearch, type UserSearchResult } from '../api/search-users.api';
import { GIFT_TO_SELF, giftErrorKey } from '../gift.validation';

/** The server accepts prefixes of at most 40 characters. */
const MAX_PREFIX = 40;

export function UsernameSearch(props: {
  initial?: UserSearchResult | null;
  assetsBaseUrl?: string;
  /** The signed-in holder's `nickname#suffix`. */
  ownUsername?: string;
  onConfirm: (user: UserSearchResult) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState(props.initial?.username ?? '');
  const [picked, setPicked] = useState<UserSearchResult | null>(props.initial ?? null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const prefix = useDebouncedValue(text.trim().slice(0, MAX_PREFIX), USERNAME_SEARCH_DEBOUNCE_MS);
  const search = useUserSearch(picked ? '' : prefix);
  const own = props.ownUsername?.toLowerCase();
  const results = (search.data ?? []).filter((u) => u.username.toLowerCase() !== own);
  const isSelf = own !== undefined && text.trim().toLowerCase() === own;
  const typing = text.trim() !== prefix || search.isFetching;
  const show = open && !picked && text.trim().length > 0;

  const pick = (u: UserSearchResult) => {
    setPicked(u);
    setText(u.username);
    setOpen(false);
    setActive(-1);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (!show) {
      if (e.key === 'ArrowDown' && text.trim() && !picked) {
        setOpen(true);
        e.preventDefault();
      }
      return;
    }
    // Home and End stay with the text field's caret.
    if (e.key === 'Home' || e.key === 'End') return;
    listboxKey(e, {
      count: results.length,
      active,
      setActive,
      choose: (i) => pick(results[i]),
      close: () => setOpen(false),
    });
  };
  const listId = `${id}-list`;
  const noteId = `${id}-note`;
  const error = isSelf ? t(GIFT_TO_SELF) : search.isError ? t(giftErrorKey(search.error, 'request_failed')) : null;
  return (
    <div className="stack">
      <div className="field">
        <div className="field__label-row">
          <label htmlFor={`${id}-input`} className="field__label">
            {t('gift.username_label')}
          </label>
        </div>
        <div className="gift-combo">
          <input
            id={`${id}-input`}
            className="field__input"
            type="text"
            role="combobox"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            placeholder={t('gift.username_placeholder')}
            value={text}
            maxLength={MAX_PREFIX}
            aria-autocomplete="list"
            aria-expanded={show}
            aria-controls={listId}
            aria-describedby={noteId}
            aria-activedescendant={show && results[active] ? optionId(listId, active) : undefined}
            onChange={(e) => {
              setText(e.target.value);
              setPicked(null);
              setOpen(true);
              setActive(-1);
            }}
            onFocus={() => {
              if (!picked) setOpen(true);
            }}
            onBlur={() => setOpen(false)}
            onKeyDown={onKey}
          />
          <div className="gift-suggestions popup" hidden={!show}>
            <Listbox
              id={listId}
              aria-label={t('gift.suggestions')}
              items={show ? results : []}
              active={active}
              onActiveChange={setActive}
              onChoose={pick}
              isSelected={(_, i) => i === active}
              itemKey={(u) => u.username}
              renderOption={(u) => (
                <span className="gift-suggestion">
                  <span aria-hidden="true" className="gift-suggestion__avatar">
                    <Avatar
                      picture={assetUrl(u.picture, props.assetsBaseUrl)}
                      givenName={nicknameOf(u.username)}
                      size={32}
                    />
                  </span>
                  <Username value={u.username} className="gift-suggestion__name" />
                </span>
              )}
            />
            {show && results.length === 0 && (
              <p className="gift-suggestions__note" role="status">
                {typing ? t('gift.searching') : (error ?? t('gift.no_results'))}
              </p>
            )}
          </div>
        </div>
        {error && !show ? (
          <p id={noteId} className="field__error" role="alert">
            {error}
          </p>
        ) : (
          <p id={noteId} className="field__helper">
            {picked ? (
              <>
                {t('gift.picked')} <Username value={picked.username} />
              </>
            ) : (
              t('gift.username_helper')
            )}
          </p>
        )}
      </div>
      <Button disabled={!picked} onClick={() => picked && props.onConfirm(picked)}>
        {t('gift.confirm_receiver')}
      </Button>
    </div>
  );
}
