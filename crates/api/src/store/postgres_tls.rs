//! TLS to PostgreSQL as libpq's URL asks for it: `sslmode` (`disable`,
//! `prefer`, `require`, `verify-ca`, `verify-full`) and `sslrootcert` (a
//! PEM file of the certificates to trust; the system's roots without it),
//! through rustls. tokio-postgres reads neither `verify-ca` nor
//! `verify-full` nor `sslrootcert`, so they are taken out of the URL here
//! and the connector does what they ask.

use std::path::PathBuf;
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, CryptoProvider};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};
use tokio_postgres::config::SslMode;
use tokio_postgres_rustls::MakeRustlsConnect;

/// What the URL's `sslmode` asks. Unset is `prefer`, as in libpq: TLS
/// where the server offers it, its certificate unchecked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Disable,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

/// The TLS a database URL asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct Tls {
    pub mode: Mode,
    pub root_cert: Option<PathBuf>,
}

/// The URL without `sslmode` and `sslrootcert`, and the TLS they ask for.
/// Both URL (`postgres://…?sslmode=verify-full`) and key-value
/// (`host=… sslmode=verify-full`) forms.
pub fn split(url: &str) -> Result<(String, Tls), String> {
    let mut tls = Tls {
        mode: Mode::Prefer,
        root_cert: None,
    };
    let mut take = |key: &str, value: &str| -> Result<bool, String> {
        match key {
            "sslmode" => {
                tls.mode = match value {
                    "disable" => Mode::Disable,
                    "allow" | "prefer" => Mode::Prefer,
                    "require" => Mode::Require,
                    "verify-ca" => Mode::VerifyCa,
                    "verify-full" => Mode::VerifyFull,
                    other => {
                        return Err(format!(
                            "sslmode={other} is none of disable, prefer, require, verify-ca, verify-full"
                        ))
                    }
                };
                Ok(true)
            }
            "sslrootcert" => {
                tls.root_cert = Some(PathBuf::from(percent_decoded(value)));
                Ok(true)
            }
            _ => Ok(false),
        }
    };
    let rest = if let Some((base, query)) = url.split_once('?').filter(|_| url.contains("://")) {
        let mut kept = Vec::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            if !take(key, value)? {
                kept.push(pair);
            }
        }
        if kept.is_empty() {
            base.to_owned()
        } else {
            format!("{base}?{}", kept.join("&"))
        }
    } else if url.contains("://") {
        url.to_owned()
    } else {
        let mut kept = Vec::new();
        for pair in url.split_whitespace() {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            if !take(key, value)? {
                kept.push(pair);
            }
        }
        kept.join(" ")
    };
    Ok((rest, tls))
}

/// `%2F` and the like of a URL's query value, as a path.
fn percent_decoded(value: &str) -> String {
    url::form_urlencoded::parse(format!("v={value}").as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_else(|| value.to_owned())
}

impl Tls {
    /// tokio-postgres's mode for this one: it asks for TLS or not; the
    /// connector checks what `verify-*` asks.
    pub fn ssl_mode(&self) -> SslMode {
        match self.mode {
            Mode::Disable => SslMode::Disable,
            Mode::Prefer => SslMode::Prefer,
            Mode::Require | Mode::VerifyCa | Mode::VerifyFull => SslMode::Require,
        }
    }

    /// The connector: a certificate checked against the roots (and its
    /// name, for `verify-full`), or, for `prefer` and `require`, taken as
    /// libpq takes it, unchecked.
    pub fn connector(&self) -> Result<MakeRustlsConnect, String> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let builder = ClientConfig::builder_with_provider(provider.clone())
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("TLS: {e}"))?;
        let verifier: Arc<dyn ServerCertVerifier> = match self.mode {
            Mode::Disable | Mode::Prefer | Mode::Require => Arc::new(Unchecked(provider)),
            Mode::VerifyCa | Mode::VerifyFull => {
                let roots = Arc::new(self.roots()?);
                let webpki = WebPkiServerVerifier::builder_with_provider(roots, provider)
                    .build()
                    .map_err(|e| format!("TLS: {e}"))?;
                if self.mode == Mode::VerifyCa {
                    Arc::new(AnyName(webpki))
                } else {
                    webpki
                }
            }
        };
        let config = builder
            .dangerous()
            .with_custom_certificate_verifier(verifier)
            .with_no_client_auth();
        Ok(MakeRustlsConnect::new(config))
    }

    /// `sslrootcert`'s certificates, else the system's.
    fn roots(&self) -> Result<RootCertStore, String> {
        let mut roots = RootCertStore::empty();
        match &self.root_cert {
            Some(path) => {
                let certs = CertificateDer::pem_file_iter(path)
                    .map_err(|e| format!("sslrootcert={}: {e}", path.display()))?;
                for cert in certs {
                    let cert = cert.map_err(|e| format!("sslrootcert={}: {e}", path.display()))?;
                    roots
                        .add(cert)
                        .map_err(|e| format!("sslrootcert={}: {e}", path.display()))?;
                }
                if roots.is_empty() {
                    return Err(format!(
                        "sslrootcert={}: no certificate in the file (PEM expected)",
                        path.display()
                    ));
                }
            }
            None => {
                let found = rustls_native_certs::load_native_certs();
                let (added, _) = roots.add_parsable_certificates(found.certs);
                if added == 0 {
                    return Err(
                        "TLS: the system has no root certificates; name the database's CA with sslrootcert=/path/ca.pem"
                            .into(),
                    );
                }
            }
        }
        Ok(roots)
    }
}

/// `prefer` and `require`: the connection is encrypted, the certificate
/// not checked (libpq's meaning; `verify-ca` or `verify-full` check it).
/// The handshake's signatures are still checked.
#[derive(Debug)]
struct Unchecked(Arc<CryptoProvider>);

impl ServerCertVerifier for Unchecked {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// `verify-ca`: the chain checked against the roots, whatever host name
/// the certificate gives.
#[derive(Debug)]
struct AnyName(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for AnyName {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self
            .0
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
        {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn sslmode_and_sslrootcert_are_taken_out_of_the_url() {
        let (rest, tls) = split(
            "postgres://zdr:secret@db.example.com:5432/zdr?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&application_name=zdr",
        )
        .unwrap();
        assert_eq!(
            rest,
            "postgres://zdr:secret@db.example.com:5432/zdr?application_name=zdr"
        );
        assert_eq!(tls.mode, Mode::VerifyFull);
        assert_eq!(tls.root_cert, Some(PathBuf::from("/etc/ca.pem")));
        let (rest, tls) = split("postgres://zdr@127.0.0.1/zdr").unwrap();
        assert_eq!(
            (rest.as_str(), tls.mode),
            ("postgres://zdr@127.0.0.1/zdr", Mode::Prefer)
        );
        let (rest, tls) = split("host=db user=zdr sslmode=require").unwrap();
        assert_eq!(
            (rest.as_str(), tls.mode),
            ("host=db user=zdr", Mode::Require)
        );
        assert!(split("postgres://db/zdr?sslmode=maybe")
            .unwrap_err()
            .contains("sslmode=maybe"));
        assert_eq!(
            Tls {
                mode: Mode::VerifyCa,
                root_cert: None
            }
            .ssl_mode(),
            SslMode::Require
        );
    }
}
