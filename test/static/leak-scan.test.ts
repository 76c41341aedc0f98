import { describe, expect, it } from 'vitest';
import { luhn, record, registerSecret, registerSensitiveInput, scan } from '../helpers/leak-scan.ts';

/** The scanner itself must be able to fail: planted leaks are found, look-alikes are not. */
describe('the leak scan', () => {
  it('finds a known secret, a sensitive input echoed back and a full card number', () => {
    registerSecret('a planted secret', 'planted-secret-value');
    registerSensitiveInput({ input: { cardId: 'crd_1', pin: '482913' } });
    record('planted', '{"msg":"login with planted-secret-value"}');
    record('planted', '{"data":{"pinEcho":"482913"}}');
    record('planted', '{"number":"4000056655665556"}');
    const findings = scan();
    expect(findings.map((f) => f.what).sort()).toEqual(['a full card number', 'a planted secret', 'input pin']);
  });

  it('leaves masked numbers, amounts, timestamps and non-Luhn digit runs alone', () => {
    record(
      'clean',
      '{"maskedNumber":"400005******5556","amount":"1000000000.00","at":1763726400000,"ref":"1234567890123","seconds":0.0418321949999995}',
    );
    expect(luhn('4000056655665556')).toBe(true);
    expect(luhn('4000056655665557')).toBe(false);
    expect(scan()).toEqual([]);
  });

  it('leaves the digits inside a trace or span id alone, and still finds a card number beside one', () => {
    record('clean', '{"traceId":"7be8655c5080571628723c063a138485","spanId":"e4000056655665556f"}');
    expect(luhn('5080571628723')).toBe(true);
    expect(scan()).toEqual([]);
    record('planted', '{"traceId":"7be8655c5080571628723c063a138485","pan":"4000056655665556"}');
    expect(scan().map((f) => f.what)).toEqual(['a full card number']);
  });

  it("finds a numeric secret standing alone, not as a few digits of a longer number (a log line's timestamp)", () => {
    registerSecret('an activation code', '428190');
    record('clean', '{"level":20,"time":1795596428190,"msg":"caller authenticated"}');
    expect(scan()).toEqual([]);
    record('planted', '{"msg":"code 428190 sent"}');
    expect(scan().map((f) => f.what)).toEqual(['an activation code']);
  });
});
