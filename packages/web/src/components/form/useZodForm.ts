/**
 * useZodForm — react-hook-form bound to a zod schema of @balcao/shared, typed end to end (no casts).
 *
 *   const form = useZodForm(tagCreateBody, { defaultValues: { name: "", color: "#…" } });
 *   const onSubmit = form.submit(async (values) => {          // values: the schema's OUTPUT (trimmed, defaulted)
 *     await save.mutateAsync(values);
 *     enqueueSnackbar(t("…success"), { variant: "success" });
 *     onClose();
 *   }, { codeFields: { ERR_DUPLICATED_SHORTCODE: "shortcode" } });
 *   <TextField {...form.field("name")} label=… />             // register + error + translated helper text
 *   <ColorPicker {...form.fieldError("color")} … />           // error + helper text for a Controller
 *   form.busy                                                  // true while the submit runs
 *
 * The form's values are the schema's INPUT type. For an add/edit pair of schemas, type the chosen one as
 * `ZodType<Output, Input>` wide enough for both (z.ZodType is covariant). `prepare` rewrites the values
 * just before validation (e.g. a blank optional field → undefined) without leaving the schema's types.
 * A failed submit maps the server's `issues` (path → field) and the codes in `codeFields` to the fields,
 * then shows the error as a toast too (see serverErrors.ts).
 *
 * The schema may also be given as a loader, `() => import("./schema").then((m) => m.body)`: the page then shows
 * without zod's schema code, which downloads right after the first render and before the first validation
 * (issue 20: the login page).
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useMemo, type BaseSyntheticEvent } from "react";
import {
  get,
  useForm,
  type FieldError,
  type FieldPath,
  type FieldValues,
  type Resolver,
  type SubmitErrorHandler,
  type UseFormProps,
  type UseFormRegisterReturn,
  type UseFormReturn,
} from "react-hook-form";
import type { ZodType } from "zod";
import { toastError, translateValidation } from "../toastError";
import { applyServerErrors, type CodeFields } from "./serverErrors";

export interface ZodFormOptions<I extends FieldValues, O> extends Omit<UseFormProps<I, unknown, O>, "resolver"> {
  /** Rewrites the values right before validation (the submitted values are the schema's output of these). */
  prepare?: (values: I) => I;
  /** Turns a field message (a schema or server text) into what the user reads; translateValidation by default. */
  translate?: (message: string | undefined) => string | undefined;
}

export interface SubmitOptions<I extends FieldValues> {
  /** Server error codes whose text belongs under a field (besides the toast), e.g. { ERR_DUPLICATED_EMAIL: "email" }. */
  codeFields?: CodeFields<I>;
  /** Called after a failed save, once the fields are marked and before the toast (e.g. to show the right tab). */
  onError?: (err: unknown) => void;
  /** Called when the schema rejects the values (nothing was sent). */
  onInvalid?: SubmitErrorHandler<I>;
  /** How a failed save is announced (after the fields are marked); toastError by default. */
  toast?: (err: unknown) => void;
}

export interface FieldErrorProps {
  error: boolean;
  helperText?: string;
}

export type ZodForm<I extends FieldValues, O> = UseFormReturn<I, unknown, O> & {
  /** register(name) plus `error` and the translated `helperText` (or `hint` while the field is valid). */
  field: (name: FieldPath<I>, hint?: string) => UseFormRegisterReturn<FieldPath<I>> & FieldErrorProps;
  /** `error` and `helperText` of a field, for inputs driven by a Controller. */
  fieldError: (name: FieldPath<I>, hint?: string) => FieldErrorProps;
  /** A submit handler: validates, runs `action` with the parsed values, maps server errors and toasts them. */
  submit: (action: (values: O) => Promise<void>, options?: SubmitOptions<I>) => (event?: BaseSyntheticEvent) => Promise<void>;
  /** The submit is running. */
  busy: boolean;
};

/** A schema loader (see useZodForm). */
export type ZodSchemaLoader<I extends FieldValues, O> = () => Promise<ZodType<O, I>>;

/** A resolver that loads the schema once (the first call to `preload` or to validate) and then validates with it. */
function lazyZodResolver<I extends FieldValues, O>(load: ZodSchemaLoader<I, O>): Resolver<I, unknown, O> & { preload: () => void } {
  let loaded: Promise<Resolver<I, unknown, O>> | undefined;
  const resolverOf = () =>
    (loaded ??= load().then(
      (schema) => zodResolver(schema),
      (err: unknown) => {
        loaded = undefined; // a failed download is tried again at the next validation
        throw err;
      },
    ));
  const resolver: Resolver<I, unknown, O> = async (values, context, options) => (await resolverOf())(values, context, options);
  return Object.assign(resolver, { preload: () => void resolverOf().catch(() => undefined) });
}

export function useZodForm<I extends FieldValues, O>(
  schema: ZodType<O, I> | ZodSchemaLoader<I, O>,
  { prepare, translate = translateValidation, ...options }: ZodFormOptions<I, O>,
): ZodForm<I, O> {
  const lazy = useMemo(() => (typeof schema === "function" ? lazyZodResolver(schema) : null), [schema]);
  useEffect(() => lazy?.preload(), [lazy]);
  const validate: Resolver<I, unknown, O> = lazy ?? zodResolver(schema as ZodType<O, I>);
  const resolver: Resolver<I, unknown, O> = prepare ? (values, context, opts) => validate(prepare(values), context, opts) : validate;
  const form = useForm<I, unknown, O>({ ...options, resolver });
  const { isSubmitting } = form.formState;

  const fieldError = (name: FieldPath<I>, hint?: string): FieldErrorProps => {
    // Only the errors are read (not getFieldState), so typing does not re-render the form for dirty/touched changes.
    const error: FieldError | undefined = get(form.formState.errors, name);
    return { error: !!error, helperText: translate(error?.message) ?? hint };
  };

  return {
    ...form,
    field: (name, hint) => ({ ...form.register(name), ...fieldError(name, hint) }),
    fieldError,
    submit: (action, { codeFields, onError, onInvalid, toast = toastError } = {}) =>
      form.handleSubmit(async (values) => {
        try {
          await action(values);
        } catch (err) {
          applyServerErrors(form, err, codeFields);
          onError?.(err);
          toast(err);
        }
      }, onInvalid),
    busy: isSubmitting,
  };
}
