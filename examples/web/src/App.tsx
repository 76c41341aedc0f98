import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, type OperationResult } from 'urql';
import { graphql } from './gql/index.ts';
import type { PayoutCreateInput } from './gql/graphql.ts';

// Every operation of the app, typed by its own codegen (npm run codegen) from the gateway's schema.
// The dashboard's screens are live queries (`@live`): the gateway sends each one's result again
// whenever the bank reports a change to what it read (a deposit, a card frozen), and useQuery renders it.

const AccountsScreen = graphql(`
  query AccountsScreen @live {
    accounts(first: 20) {
      nodes {
        upstreamId
        label
        accountNumber
        status
        requiredFeatures {
          currency
        }
      }
    }
    balances {
      currency
      available {
        amount
        currency
      }
    }
  }
`);

const CardsScreen = graphql(`
  query CardsScreen @live {
    cards(first: 20) {
      nodes {
        upstreamId
        maskedNumber
        type
        status
        currency
        cardholder {
          email
        }
      }
    }
  }
`);

const PayoutFormData = graphql(`
  query PayoutFormData {
    beneficiaries(first: 50) {
      nodes {
        upstreamId
        companyName
        bankDetails {
          accountCurrency
          bankCountryCode
        }
        transferMethods
      }
    }
  }
`);

const PayoutQuote = graphql(`
  mutation PayoutQuote($input: QuoteCreateInput!) {
    quoteCreate(input: $input) {
      __typename
      ... on QuoteCreateSuccess {
        quote {
          upstreamId
        }
      }
      ... on ValidationError {
        message
        issues {
          path
          message
        }
      }
      ... on MutationError {
        message
      }
    }
  }
`);

const PayoutSend = graphql(`
  mutation PayoutSend($input: PayoutCreateInput!, $idempotencyKey: String) {
    payoutCreate(input: $input, idempotencyKey: $idempotencyKey) {
      __typename
      ... on PayoutCreateSuccess {
        payout {
          upstreamId
          status
          scheduledDate
        }
      }
      ... on ValidationError {
        message
        issues {
          path
          message
        }
      }
      ... on OutcomeUnknown {
        idempotencyKey
        check
      }
      ... on MayHaveGoneThrough {
        earlierIdempotencyKey
        check
      }
      ... on MutationError {
        message
      }
    }
  }
`);

export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 960, margin: '0 auto', padding: 16 }}>
      <h1>Acme treasury</h1>
      <Accounts />
      <Cards />
      <PayoutForm />
    </main>
  );
}

function Accounts() {
  const [{ data, error }] = useQuery({ query: AccountsScreen });
  if (error) return <p role="alert">{error.message}</p>;
  if (!data) return <p>Loading accounts…</p>;
  // Null when the caller may not read balances (FORBIDDEN on that field alone): the accounts still show.
  const available = new Map((data.balances ?? []).map((b) => [b.currency, b.available.amount]));
  return (
    <section aria-label="Accounts">
      <h2>Accounts</h2>
      <table>
        <tbody>
          {(data.accounts?.nodes ?? []).map((account) => {
            const currency = account.requiredFeatures[0]?.currency ?? '';
            return (
              <tr key={account.upstreamId} data-account={account.upstreamId}>
                <td>{account.label ?? account.accountNumber}</td>
                <td>{account.status}</td>
                <td>
                  {available.get(currency) ?? '—'} {currency}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

const BADGE: Record<string, string> = { ACTIVE: '#1a7f37', INACTIVE: '#9a6700', CLOSED: '#6e7781' };

function Cards() {
  const [{ data, error }] = useQuery({ query: CardsScreen });
  if (error) return <p role="alert">{error.message}</p>;
  if (!data) return <p>Loading cards…</p>;
  return (
    <section aria-label="Cards">
      <h2>Cards</h2>
      <ul>
        {(data.cards?.nodes ?? []).map((card) => {
          const { status } = card;
          return (
            <li key={card.upstreamId} data-card={card.upstreamId}>
              {card.maskedNumber} {card.type} {card.currency} {card.cardholder?.email}{' '}
              <span
                className="badge"
                data-status={status}
                style={{ color: 'white', background: BADGE[status] ?? '#333', borderRadius: 8, padding: '0 6px' }}
              >
                {status}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

type FieldErrors = Record<string, string>;

type Issue = { path: readonly (string | number)[]; message: string };

/** Issues by input field (`["input", "sourceAmount"]` → `sourceAmount`). */
function fieldErrors(issues: readonly Issue[]): FieldErrors {
  return Object.fromEntries(issues.map((issue) => [issue.path.slice(1).join('.') || 'form', issue.message]));
}

/**
 * Why a mutation failed, by field: its ValidationError's issues, or, when the gateway refused the
 * variables themselves (`"abc"` for a Decimal: BAD_USER_INPUT before anything ran), their issues.
 */
function failure(
  result: OperationResult,
  outcome: { __typename?: string; message?: string; issues?: readonly Issue[] } | null | undefined,
  fallback: string,
): FieldErrors {
  if (outcome?.__typename === 'ValidationError' && outcome.issues) return fieldErrors(outcome.issues);
  const refused = (result.error?.graphQLErrors ?? []).flatMap((error) =>
    error.extensions?.code === 'BAD_USER_INPUT' ? ((error.extensions.issues as Issue[] | undefined) ?? []) : [],
  );
  if (refused.length > 0) return fieldErrors(refused);
  return { form: outcome?.message ?? result.error?.message ?? fallback };
}

/** A text input's value (a form's entry is a file only for a file input). */
function textOf(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/** A payout sent whose answer was not definite: retried with the same input and key until it is (docs/frontend.md, "Sending money safely"). */
type Pending = { input: PayoutCreateInput; key: string; why: string };

function PayoutForm() {
  const [{ data }] = useQuery({ query: PayoutFormData });
  const [, quote] = useMutation(PayoutQuote);
  const [, send] = useMutation(PayoutSend);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [done, setDone] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const beneficiaries = data?.beneficiaries?.nodes ?? [];

  /** The payout the form describes, against a fresh quote; null when the quote failed (its errors shown). */
  async function newPayout(form: FormData): Promise<PayoutCreateInput | null> {
    const beneficiary = beneficiaries.find((b) => b.upstreamId === form.get('beneficiary'));
    const sourceAmount = textOf(form, 'sourceAmount');
    const destinationCurrency = beneficiary?.bankDetails?.accountCurrency ?? 'USD';
    const quoteResult = await quote({
      input: {
        quoteType: 'PAYOUT',
        lockPeriod: 'MINUTES_15',
        conversionSchedule: 'IMMEDIATE',
        sourceCurrency: 'USD',
        destinationCurrency,
        sourceAmount,
      },
    });
    const quoted = quoteResult.data?.quoteCreate;
    if (quoted?.__typename !== 'QuoteCreateSuccess') {
      setErrors(failure(quoteResult, quoted, 'The quote failed'));
      return null;
    }
    return {
      beneficiaryId: beneficiary?.upstreamId ?? '',
      quoteId: quoted.quote.upstreamId,
      sourceCurrency: 'USD',
      destinationCurrency,
      sourceAmount,
      destinationCountry: beneficiary?.bankDetails?.bankCountryCode ?? 'US',
      feeType: 'SHA',
      transferMethod: beneficiary?.transferMethods?.[0] ?? 'SWIFT',
      reference: textOf(form, 'reference'),
      sourceOfFunds: 'Business revenue',
    };
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setErrors({});
    setDone(null);
    // The key is made when the person presses "send", and kept, with the input, until a definite answer.
    const attempt =
      pending ??
      (await newPayout(new FormData(event.currentTarget)).then((input) => input && { input, key: crypto.randomUUID(), why: '' }));
    if (!attempt) return;
    const sendResult = await send({ input: attempt.input, idempotencyKey: attempt.key });
    const sent = sendResult.data?.payoutCreate;
    if (!sent || sent.__typename === 'OutcomeUnknown') {
      return setPending({
        ...attempt,
        why: `We could not confirm this payout: the bank may have made it. ${sent?.check ?? ''} "Retry safely" cannot pay twice.`,
      });
    }
    if (sent.__typename === 'MayHaveGoneThrough') {
      return setPending({
        ...attempt,
        key: sent.earlierIdempotencyKey,
        why: `An earlier attempt may have gone through. ${sent.check} "Retry safely" answers what became of it.`,
      });
    }
    setPending(null);
    if (sent.__typename === 'PayoutCreateSuccess')
      return setDone(`Payout ${sent.payout.upstreamId} ${sent.payout.status} for ${sent.payout.scheduledDate}`);
    setErrors(failure(sendResult, sent, 'The payout failed'));
  }

  return (
    <section aria-label="Payout">
      <h2>New payout</h2>
      <form onSubmit={(event) => void submit(event)}>
        {/* While an answer is not definite, the payout is locked: a retry must send the same one. */}
        <fieldset disabled={pending !== null} style={{ border: 'none', padding: 0, margin: 0 }}>
          <label>
            Beneficiary{' '}
            <select name="beneficiary">
              {beneficiaries.map((b) => (
                <option key={b.upstreamId} value={b.upstreamId}>
                  {b.companyName} ({b.bankDetails?.accountCurrency})
                </option>
              ))}
            </select>
          </label>
          <Field name="sourceAmount" label="Amount (USD)" errors={errors} />
          <Field name="reference" label="Reference" errors={errors} defaultValue="Invoice 1001" />
        </fieldset>
        <button type="submit">{pending ? 'Retry safely' : 'Send payout'}</button>
        {pending && (
          <p role="alert" data-pending-key={pending.key}>
            {pending.why}
          </p>
        )}
        {errors.form && <p role="alert">{errors.form}</p>}
        {done && <p role="status">{done}</p>}
      </form>
    </section>
  );
}

function Field({ name, label, errors, defaultValue }: { name: string; label: string; errors: FieldErrors; defaultValue?: string }) {
  return (
    <p>
      <label>
        {label} <input name={name} defaultValue={defaultValue} aria-invalid={errors[name] ? true : undefined} />
      </label>
      {errors[name] && (
        <span className="field-error" data-field={name} style={{ color: '#cf222e' }}>
          {' '}
          {errors[name]}
        </span>
      )}
    </p>
  );
}
