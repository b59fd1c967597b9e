/**
 * Members (issue 21, owners): who signs in to this console and with which role; add by e-mail, remove with a
 * confirm (the last owner stays: `409 api.org.last_owner`).
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ORG_ROLES, type MemberItem, type OrgRole } from '@tp/contract';
import { Field } from '../../../ui/field';
import { ConfirmBox } from '../../confirm-box';
import { FormFooter } from '../../form-footer';
import { QueryState } from '../../query-state';
import { SelectField } from '../../select-field';
import { RowButton, TableHead, TableRegion } from '../../table-region';
import { ErrorBlock, useServerErrors } from '../../server-errors';
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
        <SelectField
          id="member-role"
          label={t('console.members.role')}
          error={form.formState.errors.role?.message}
          {...form.register('role')}
        >
          {ORG_ROLES.map((r) => (
            <option key={r} value={r}>
              {t(`console.role.${r}`)}
            </option>
          ))}
        </SelectField>
        <FormFooter bare submit={t('console.members.add')} pending={add.isPending} />
      </form>
      <p className="muted">{t('console.members.roles_help')}</p>
      <ErrorBlock message={added.formError} />
      <TableRegion label={t('console.members.title')} card>
        <table>
          <TableHead columns={[t('console.email'), t('console.members.role')]} action={t('console.members.remove')} />
          <tbody>
            {members.data?.map((m) => (
              <tr key={m.id}>
                <td>{m.email}</td>
                <td>{t(`console.role.${m.role}`)}</td>
                <td>
                  <RowButton label={t('console.members.remove')} name={m.email} onClick={() => setRemoving(m)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <QueryState query={members} />
      </TableRegion>
      {removing && (
        <ConfirmBox
          id="remove-q"
          question={t('console.members.remove_confirm', { email: removing.email })}
          yes={t('console.members.remove_yes')}
          pending={remove.isPending}
          error={remove.error}
          onYes={() => remove.mutate(removing.id)}
          onCancel={() => {
            remove.reset();
            setRemoving(null);
          }}
        />
      )}
    </section>
  );
}
