import { z } from "zod";
import { PROFILES, type Profile } from "../constants";
import type { Language } from "../errors";
import { LANGUAGES } from "../languages";
import { emailField, idField, listQuery, nameField, passwordField } from "./common";

const allTicketField = z.enum(["enable", "enabled", "disable", "disabled"]).transform((v) => (v.startsWith("enable") ? "enable" : "disable"));

export const userCreateBody = z.object({
  name: nameField,
  email: emailField,
  password: passwordField,
  profile: z.enum(PROFILES).optional().default("user"),
  queueIds: z.array(idField).max(500).optional().default([]),
  allTicket: allTicketField.optional().default("disable"),
});
export type UserCreateBody = z.input<typeof userCreateBody>;

export const userUpdateBody = z.object({
  name: nameField.optional(),
  email: emailField.optional(),
  /** An empty password means "keep the current one" (the edit form sends it blank). */
  password: z
    .union([z.literal(""), passwordField])
    .optional()
    .transform((v) => (v ? v : undefined)),
  profile: z.enum(PROFILES).optional(),
  queueIds: z.array(idField).max(500).optional(),
  allTicket: allTicketField.optional(),
  /** The interface language; only the user itself may change it (issue 16). */
  language: z.enum(LANGUAGES).optional(),
});
export type UserUpdateBody = z.input<typeof userUpdateBody>;

export const userListQuery = listQuery;

export const userListSimpleQuery = z.object({ companyId: idField.optional() });

export interface QueueRefDTO {
  id: number;
  name: string;
  color: string;
}

export interface CompanyRefDTO {
  id: number;
  name: string;
  /** ISO date (yyyy-MM-dd) the subscription is paid until. */
  dueDate: string | null;
  status: boolean;
  campaignsEnabled: boolean;
  planId: number | null;
  /** The company's billing email (spec §3). */
  email: string;
  /** Until a first invoice is paid the company is on trial, and this is the day it ends (its due date); then null. */
  trialExpiration: string | null;
  /** The company's IANA time zone: its schedules and reports are read on this clock. */
  timeZone?: string;
}

export interface UserDTO {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  companyId: number;
  allTicket: "enable" | "disable";
  online: boolean;
  queues: QueueRefDTO[];
  company: CompanyRefDTO;
  /** The interface language the user picked; null until picked (the browser's language is then used). */
  language: Language | null;
  createdAt: string;
}

export interface UserListResponse {
  users: UserDTO[];
  hasMore: boolean;
}

export interface UserSimpleDTO {
  id: number;
  name: string;
  email: string;
  profile: string;
}
