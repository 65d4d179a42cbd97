import { z } from '~/lib/zod.ts';
import { emailField } from '~/lib/contact.schema.ts';

export const newsletterSchema = z.object({
  // Internationalised addresses (тест@пример.рф) are addresses too.
  email: emailField(),
  website: z.string().max(500).default(''),
});
