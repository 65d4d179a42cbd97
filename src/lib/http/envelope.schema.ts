// The envelope (DESIGN §3) as schemas: what the OpenAPI document (src/lib/http/openapi.ts) describes
// and what the types of envelope.ts come from. Server-only: islands import the types, never zod.
import { z } from '../zod.ts';

export const crumbSchema = z.object({ name: z.string(), url: z.string().optional() }).meta({ id: 'Crumb' });
export const metaDataSchema = z.object({ title: z.string(), description: z.string() }).meta({ id: 'MetaData' });
export const fieldErrorsSchema = z
  .record(z.string(), z.array(z.string()))
  .meta({ id: 'FieldErrors', description: 'Messages per field, in the request’s language' });
export const failureSchema = z
  .object({
    success: z.literal(false),
    message: z.string(),
    errors: fieldErrorsSchema.optional(),
    data: z.unknown().optional().describe('The buyout form reads its field errors under data.data (spec §7)'),
  })
  .meta({ id: 'Failure' });

export type Crumb = z.infer<typeof crumbSchema>;
export type MetaData = z.infer<typeof metaDataSchema>;
