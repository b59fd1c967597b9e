/**
 * The avatar part of the account tab: the current picture (or initials), a file chooser for HEIC, WEBP, SVG,
 * PNG or JPG (recommended at least 264x264, shown as help), a preview of the chosen file, and Save (enabled
 * only once a valid file is chosen). Refused files show api.profile.avatar_invalid / avatar_too_large.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import type { User } from '@tp/contract';
import { usePanelConfig } from '../../../lib/queries';
import { errorKey } from '../../../lib/api-client';
import { assetUrl } from '../../../lib/format';
import { Avatar } from '../../../ui/avatar';
import { Button } from '../../../ui/button';
import { uploadAvatar, useUploadAvatar } from '../api/profile-avatar.api';
import { AVATAR_ACCEPT, AVATAR_MIN_RECOMMENDED_PX } from '@tp/contract/profile';
import { avatarFileError } from '../account-validation';

export function AccountAvatar(props: { user: User }) {
  const { t } = useTranslation();
  const config = usePanelConfig();
  const upload = useUploadAvatar();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  // HEIC does not preview in most browsers; the server converts it. The object URL is freed with its file.
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  const clear = () => {
    setFile(null);
    setError(null);
    if (input.current) input.current.value = '';
  };
  const onChoose = (f: File | undefined) => {
    if (!f) {
      clear();
      return;
    }
    const problem = avatarFileError(f);
    setError(problem);
    setFile(problem ? null : f);
  };
  const save = async () => {
    if (!file) return;
    try {
      await upload.mutateAsync(file);
      toast.success(t('account.avatar_saved'));
      clear();
    } catch (err) {
      const key = errorKey(err);
      if (key.startsWith('api.profile.avatar')) setError(key);
      toast.error(t(key), { action: uploadAvatar });
    }
  };
  const u = props.user;
  const note = `${id}-note`;
  return (
    <section className="box account-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="section-title">
        {t('account.avatar_title')}
      </h2>
      <div className="account-avatar">
        {preview ? (
          <img
            className="avatar account-avatar__img"
            src={preview}
            alt={t('account.avatar_preview')}
            width={88}
            height={88}
          />
        ) : (
          <Avatar
            picture={assetUrl(u.picture, config?.assetsBaseUrl)}
            givenName={u.givenName}
            familyName={u.familyName}
            size={88}
            label={t('account.avatar_current')}
          />
        )}
        <div className="stack-sm account-avatar__side">
          <label htmlFor={id} className="btn btn--secondary btn--small account-avatar__choose">
            {t('account.avatar_choose')}
          </label>
          <input
            ref={input}
            id={id}
            className="visually-hidden"
            type="file"
            accept={AVATAR_ACCEPT}
            aria-describedby={note}
            aria-invalid={error ? true : undefined}
            onChange={(e) => onChoose(e.target.files?.[0])}
          />
          {file && <span className="small account-avatar__file">{file.name}</span>}
          {error ? (
            <p id={note} className="field__error" role="alert">
              {t(error)}
            </p>
          ) : (
            <p id={note} className="field__helper">
              {t('account.avatar_help', { size: AVATAR_MIN_RECOMMENDED_PX })}
            </p>
          )}
        </div>
      </div>
      <div className="account-actions">
        {file && (
          <Button variant="ghost" onClick={clear} disabled={upload.isPending}>
            {t('common.cancel')}
          </Button>
        )}
        <Button onClick={save} disabled={!file || Boolean(error)} loading={upload.isPending}>
          {t('account.avatar_save')}
        </Button>
      </div>
    </section>
  );
}
