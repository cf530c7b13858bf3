import { z } from "zod";

export const settingKeyParams = z.object({ key: z.string().trim().min(1).max(64).regex(/^[A-Za-z][A-Za-z0-9_]*$/) });
export const settingUpdateBody = z.object({ value: z.string().max(2000) });

export interface SettingDTO {
  key: string;
  value: string;
}
