import { describe, expect, it } from 'vitest';
import type { User } from '@tp/contract';
import { aUser } from '../test/fixtures';
import { profilePayload } from './profile';

const stored: User & { accessToken: string } = {
  ...aUser({
    familyName: null,
    name: null,
    preferredUsername: 'alice#1234',
    uniqueID: '#1234',
    phoneNumber: '+61412345678',
  }),
  accessToken: 'jwt',
};

describe('POST /auth/profile body (spec section 7)', () => {
  it('is the stored user minus the access token, merged with the change', () => {
    const body = profilePayload(stored, { familyName: 'Liddell', phoneNumber: null });
    const { accessToken: _t, ...rest } = stored;
    expect(body).toEqual({ ...rest, familyName: 'Liddell', phoneNumber: null });
    expect(body).not.toHaveProperty('accessToken');
  });

  it('is the change alone when no user is stored yet', () => {
    expect(profilePayload(undefined, { givenName: 'Ana' })).toEqual({ givenName: 'Ana' });
  });
});
