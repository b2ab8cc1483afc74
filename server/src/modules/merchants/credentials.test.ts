import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { credentialHint, generateCredential, generateHmacSecret, kindFromPrefix } from './credentials';
import { hashCredential, hashesEqual } from '../../auth/credential-hash';
import { randomAlphanumeric } from '../../ids';

describe('credentials', () => {
  it('carry their prefix and at least 128 random bits', () => {
    const key = generateCredential('merchant_key');
    expect(key).toMatch(/^sk_[A-Za-z0-9]{32}$/);
    expect(32 * Math.log2(62)).toBeGreaterThan(128);
    expect(generateCredential('branch_key')).toMatch(/^bk_/);
    expect(generateCredential('device')).toMatch(/^dev_/);
    expect(generateCredential('client')).toMatch(/^ck_/);
    expect(new Set(Array.from({ length: 1000 }, () => generateCredential('client'))).size).toBe(1000);
  });

  it('draws characters uniformly enough that every one appears', () => {
    const seen = new Set(randomAlphanumeric(20_000));
    expect(seen.size).toBe(62);
  });

  it('hmac secrets are whsec_ + base64 of 32 bytes', () => {
    const secret = generateHmacSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
  });

  it('hash with SHA-256 and compare hashes exactly', () => {
    const key = generateCredential('merchant_key');
    expect(hashCredential(key)).toEqual(createHash('sha256').update(key).digest());
    expect(hashesEqual(hashCredential(key), hashCredential(key))).toBe(true);
    expect(hashesEqual(hashCredential(key), hashCredential(`${key}x`))).toBe(false);
    expect(hashesEqual(hashCredential(key), Buffer.alloc(3))).toBe(false);
  });

  it('hint shows only the prefix and the last four characters', () => {
    expect(credentialHint('sk_ABCDEFGHIJKLMNOPQRSTUVWXYZ123456')).toBe('sk_…3456');
    expect(kindFromPrefix('dev_x')).toBe('device');
    expect(kindFromPrefix('nope')).toBeNull();
  });
});
