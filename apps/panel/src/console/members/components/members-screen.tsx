/**
 * Members (issue 21, owners): who signs in to this console and with which role; add by e-mail, remove with a
 * confirm (the last owner stays: `409 api.org.last_owner`).
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ORG_ROLES, type MemberItem, type OrgRole } from '@tp/contract';
import { Button } from '../../../ui/button';
import { Field } from '../../../ui/field';
import { errorText } from '../../errors';
import { QueryState } from '../../query-state';
import { TableRegion } from '../../table-region';
import { FieldError, useServerErrors } from '../../server-errors';
import { useMembers } from '../api/members.api';
import { useAddMember } from '../api/add-member.api';
import { useRemoveMember } from '../api/remove-member.api';

export function MembersScreen() {
  const { t, i18n } = useTranslation();
  const [removing, setRemoving] = useState<MemberItem | null>(null);
  const members = useMembers();
  const form = useForm<{ email: string; role: OrgRole }>({ defaultValues: { email: '', role: 'staff' } });
  const added = useServerErrors(form, {}, { 'api.org.member_exists': 'email' });
  const add = useAddMember({
    onMutate: () => added.setFormError(null),
    onError: added.show,
    onSuccess: () => form.reset({ email: '', role: form.getValues('role') }),
  });
  const remove = useRemoveMember({ onSuccess: () => setRemoving(null) });
  return (
    <section className="stack">
      <h1>{t('console.members.title')}</h1>
      <form
        className="card row"
        onSubmit={(e) => void form.handleSubmit((member) => add.mutate({ member, lang: i18n.language }))(e)}
        noValidate
      >
        <Field
          label={t('console.email')}
          type="email"
          error={form.formState.errors.email?.message}
          {...form.register('email', { required: t('console.required') })}
        />
        <div className="field">
          <label className="field__label" htmlFor="member-role">
            {t('console.members.role')}
          </label>
          <select
            id="member-role"
            className="select"
            aria-invalid={form.formState.errors.role ? true : undefined}
            aria-describedby={form.formState.errors.role ? 'member-role-error' : undefined}
            {...form.register('role')}
          >
            {ORG_ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`console.role.${r}`)}
              </option>
            ))}
          </select>
          <FieldError id="member-role-error" message={form.formState.errors.role?.message} />
        </div>
        <Button type="submit" loading={add.isPending}>
          {t('console.members.add')}
        </Button>
      </form>
      <p className="muted">{t('console.members.roles_help')}</p>
      {added.formError && (
        <p className="error" role="alert">
          {added.formError}
        </p>
      )}
      <TableRegion label={t('console.members.title')} card>
        <table>
          <thead>
            <tr>
              <th>{t('console.email')}</th>
              <th>{t('console.members.role')}</th>
              <th>
                <span className="visually-hidden">{t('console.members.remove')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.data?.map((m) => (
              <tr key={m.id}>
                <td>{m.email}</td>
                <td>{t(`console.role.${m.role}`)}</td>
                <td>
                  <Button
                    variant="secondary"
                    className="btn--small"
                    onClick={() => setRemoving(m)}
                    aria-label={`${t('console.members.remove')}: ${m.email}`}
                  >
                    {t('console.members.remove')}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <QueryState query={members} />
      </TableRegion>
      {removing && (
        <div className="card stack" role="alertdialog" aria-labelledby="remove-q">
          <p id="remove-q">{t('console.members.remove_confirm', { email: removing.email })}</p>
          {remove.isError && (
            <p className="error" role="alert">
              {errorText(t, remove.error)}
            </p>
          )}
          <div className="row">
            <Button variant="danger" loading={remove.isPending} onClick={() => remove.mutate(removing.id)}>
              {t('console.members.remove_yes')}
            </Button>
            <Button
              variant="ghost"
              onClick={() => {
                remove.reset();
                setRemoving(null);
              }}
            >
              {t('console.cancel')}
            </Button>
          </div>
        </div>
      )}
    </section>
  );
}
