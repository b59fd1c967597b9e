/**
 * The door keys (issue 21; owners and door staff): a form for a new key (its name, the events it opens, by id,
 * comma-separated, none for all; since issue 48 its mode, entry or exit, and its zone, none for the general doors),
 * the new key shown once with its door set-up link and QR, and the keys in a table with their mode and zone, when
 * each was made and its revoke button.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../ui/field';
import { FormFooter } from '../../form-footer';
import { QueryState } from '../../query-state';
import { SelectField } from '../../select-field';
import { ErrorBlock, useServerErrors } from '../../server-errors';
import { ShownOnce } from '../../shown-once';
import { TableHead, TableRegion } from '../../table-region';
import { consoleTime as date } from '../../zoned-time';
import { useCreateDoorKey, type NewDoorKey } from '../api/create-door-key.api';
import { useDoorKeys } from '../api/door-keys.api';
import { useRevokeDoorKey } from '../api/revoke-door-key.api';
import { DoorSetup } from './door-setup';
import { RevokeButton } from './revoke-button';

export function DoorKeys() {
  const { t } = useTranslation();
  const [shown, setShown] = useState<string | null>(null);
  const list = useDoorKeys();
  const form = useForm<NewDoorKey>({ defaultValues: { name: '', events: '', mode: 'entry', zone: '' } });
  const created = useServerErrors(form, { eventExternalIds: 'events' }, { 'api.org.event_not_found': 'events' });
  const create = useCreateDoorKey({
    onMutate: () => created.setFormError(null),
    onError: created.show,
    onSuccess: (r) => {
      setShown(r.key);
      form.reset();
    },
  });
  const revoke = useRevokeDoorKey();
  return (
    <section className="stack" aria-labelledby="door-keys-title">
      <h2 id="door-keys-title">{t('console.keys.door_title')}</h2>
      <p className="muted">{t('console.keys.door_help')}</p>
      <form className="card row" onSubmit={(e) => void form.handleSubmit((v) => create.mutate(v))(e)} noValidate>
        <Field
          label={t('console.keys.door_name')}
          error={form.formState.errors.name?.message}
          {...form.register('name', { required: t('console.required') })}
        />
        <Field
          label={t('console.keys.door_events')}
          error={form.formState.errors.events?.message}
          {...form.register('events')}
        />
        <SelectField id="door-mode" label={t('console.keys.door_mode')} {...form.register('mode')}>
          <option value="entry">{t('console.keys.mode_entry')}</option>
          <option value="exit">{t('console.keys.mode_exit')}</option>
        </SelectField>
        <Field
          label={t('console.keys.door_zone')}
          maxLength={40}
          error={form.formState.errors.zone?.message}
          {...form.register('zone')}
        />
        <FormFooter bare submit={t('console.keys.door_create')} pending={create.isPending} />
      </form>
      <ErrorBlock message={created.formError} />
      {shown && <ShownOnce label={t('console.keys.door_new')} value={shown} onDone={() => setShown(null)} />}
      {shown && <DoorSetup doorKey={shown} />}
      <ErrorBlock error={revoke.error} />
      <TableRegion label={t('console.keys.door_title')} card>
        <table>
          <TableHead
            columns={[
              t('console.keys.name'),
              t('console.keys.prefix'),
              t('console.keys.events'),
              t('console.keys.mode'),
              t('console.keys.zone'),
              t('console.keys.created'),
            ]}
            action={t('console.keys.revoke')}
          />
          <tbody>
            {list.data?.map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td>
                  <code>{k.prefix}</code>
                </td>
                <td>{k.eventExternalIds?.join(', ') ?? t('console.keys.all_events')}</td>
                <td data-label={t('console.keys.mode')}>{t(`console.keys.mode_${k.mode}`)}</td>
                <td data-label={t('console.keys.zone')}>{k.zone ?? t('console.keys.no_zone')}</td>
                <td data-label={t('console.keys.created')}>{date(k.createdAt)}</td>
                <td>
                  <RevokeButton name={k.name} pending={revoke.isPending} onRevoke={() => revoke.mutate(k.id)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <QueryState query={list} empty={list.data?.length === 0} none={t('console.keys.none')} />
      </TableRegion>
    </section>
  );
}
