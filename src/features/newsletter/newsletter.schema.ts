import { z } from 'zod';
import { NEWSLETTER_TEXT } from './newsletter.ts';

export const newsletterSchema = z.object({
  email: z
    .string({ error: NEWSLETTER_TEXT.required })
    .trim()
    .min(1, NEWSLETTER_TEXT.required)
    .max(254, NEWSLETTER_TEXT.invalid)
    .pipe(z.email(NEWSLETTER_TEXT.invalid)),
  website: z.string().max(500).default(''),
});
