import { z } from "zod";
import { PROFILES } from "../constants";
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

export const queueRefDto = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
});
export type QueueRefDTO = z.infer<typeof queueRefDto>;

export const companyRefDto = z.object({
  id: z.number(),
  name: z.string(),
  /** ISO date (yyyy-MM-dd) the subscription is paid until. */
  dueDate: z.string().nullable(),
  status: z.boolean(),
  campaignsEnabled: z.boolean(),
  planId: z.number().nullable(),
  /** The company's billing email (spec §3). */
  email: z.string(),
  /** Until a first invoice is paid the company is on trial, and this is the day it ends (its due date), then null. */
  trialExpiration: z.string().nullable(),
  /** The company's IANA time zone: its schedules and reports are read on this clock. */
  timeZone: z.string().optional(),
});
export type CompanyRefDTO = z.infer<typeof companyRefDto>;

export const userDto = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  profile: z.enum(PROFILES),
  super: z.boolean(),
  companyId: z.number(),
  allTicket: z.enum(["enable", "disable"]),
  online: z.boolean(),
  queues: z.array(queueRefDto),
  company: companyRefDto,
  /** The interface language the user picked, null until picked (the browser's language is then used). */
  language: z.enum(LANGUAGES).nullable(),
  createdAt: z.string(),
});
export type UserDTO = z.infer<typeof userDto>;

export const userListResponse = z.object({
  users: z.array(userDto),
  hasMore: z.boolean(),
});
export type UserListResponse = z.infer<typeof userListResponse>;

export const userSimpleDto = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  profile: z.string(),
});
export type UserSimpleDTO = z.infer<typeof userSimpleDto>;
