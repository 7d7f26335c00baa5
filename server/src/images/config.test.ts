import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/env.js';

const s3 = {
  S3_BUCKET: 'clinic-photos',
  S3_REGION: 'eu-central-1',
  S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
  S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI-very-secret',
};

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('image storage configuration', () => {
  it('keeps images in DATA_DIR/uploads when no S3_* is set', () => {
    const config = loadConfig({ DATA_DIR: '/srv/portal' });
    expect(config.images).toEqual({ storage: 'disk', dir: path.join('/srv/portal', 'uploads') });
  });

  it('uses S3 when the bucket, region and key pair are set', () => {
    expect(loadConfig(s3).images).toEqual({
      storage: 's3',
      bucket: 'clinic-photos',
      region: 'eu-central-1',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI-very-secret',
    });
  });

  it('takes an S3-compatible endpoint and a public URL, without their trailing slash', () => {
    const config = loadConfig({
      ...s3,
      S3_ENDPOINT: 'http://127.0.0.1:9000/',
      S3_PUBLIC_URL: 'https://photos.clinic.example/',
    });
    expect(config.images).toMatchObject({
      endpoint: 'http://127.0.0.1:9000',
      publicUrl: 'https://photos.clinic.example',
    });
  });

  it('treats empty variables as unset', () => {
    const empty = Object.fromEntries(Object.keys(s3).map((name) => [name, '']));
    expect(loadConfig({ ...empty, S3_ENDPOINT: '' }).images.storage).toBe('disk');
  });

  it('names every missing variable when only some are set', () => {
    expect(refusal({ S3_BUCKET: 'clinic-photos', S3_ACCESS_KEY_ID: 'AKIAEXAMPLE' })).toBe(
      'S3_REGION and S3_SECRET_ACCESS_KEY must be set too: S3 image storage needs the bucket, region, access key id and secret access key (leave every S3_* unset to keep images in DATA_DIR/uploads)',
    );
  });

  it.each(['S3_ENDPOINT', 'S3_PUBLIC_URL'])('refuses %s without the rest of S3', (name) => {
    expect(refusal({ [name]: 'https://s3.example.com' })).toBe(
      `${name} is set but S3 storage is not: set S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY too, or unset it`,
    );
  });

  it.each([
    ['S3_BUCKET', 'Clinic_Photos', /^S3_BUCKET must be an S3 bucket name/],
    ['S3_REGION', 'EU Central', /^S3_REGION must be a region name such as us-east-1/],
    ['S3_ENDPOINT', 'minio:9000', /^S3_ENDPOINT must be an http:\/\/ or https:\/\/ URL/],
    ['S3_PUBLIC_URL', 'photos.clinic.example', /^S3_PUBLIC_URL must be an http:\/\/ or https:\/\//],
  ])('refuses a malformed %s with one line', (name, value, message) => {
    const text = refusal({ ...s3, [name]: value });
    expect(text).toMatch(message);
    expect(text).not.toContain('\n');
  });

  it('never repeats the secret access key in a message', () => {
    const text = refusal({ S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI-very-secret' });
    expect(text).not.toContain('very-secret');
  });
});
