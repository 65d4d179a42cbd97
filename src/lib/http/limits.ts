/** Bodies larger than this are refused (413): nothing the shop's API accepts comes close. */
export const MAX_BODY_BYTES = 1_000_000;

/** A console form's text (a note, a reason, a price): small. */
export const FORM_MAX_BYTES = 64 * 1024;
/** A feed uploaded in the console (a larger one goes by its address, streamed to disk). */
export const FEED_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;

/**
 * The largest body any route reads — the console's feed upload with its form — and the adapter's backstop
 * (astro.config): each route reads within its own limit, through readCapped.
 */
export const ADAPTER_BODY_LIMIT = FEED_UPLOAD_MAX_BYTES + FORM_MAX_BYTES;

/**
 * A request's body as it arrives, its parts, or null past `max` bytes, whatever the request declares: a
 * declared length too large is refused before reading, a chunked one as soon as it passes the limit, and
 * the rest is never read. A body that breaks off otherwise throws.
 */
export async function readCapped(request: Request, max: number): Promise<Uint8Array[] | null> {
  if (Number(request.headers.get('content-length') ?? '0') > max) return null;
  if (!request.body) return [];
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const part of request.body as unknown as AsyncIterable<Uint8Array>) {
      size += part.byteLength;
      if (size > max) return null;
      parts.push(part);
    }
  } catch (error) {
    // The adapter's backstop cut it off: too large as well. Anything else (a broken body) is the caller's.
    if (error instanceof Error && /body size limit/i.test(error.message)) return null;
    throw error;
  }
  return parts;
}

/**
 * A posted form (URL-encoded or multipart) read within `max` bytes: 'large' past it, 'bad' when it is not a
 * form or does not parse. The parts go to the parser as they came, without a copy into one buffer first.
 */
export async function readFormData(request: Request, max: number): Promise<FormData | 'bad' | 'large'> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) return 'bad';
  let parts: Uint8Array[] | null;
  try {
    parts = await readCapped(request, max);
  } catch {
    return 'bad';
  }
  if (!parts) return 'large';
  try {
    return await new Response(new Blob(parts as BlobPart[]), { headers: { 'content-type': type } }).formData();
  } catch {
    return 'bad';
  }
}
