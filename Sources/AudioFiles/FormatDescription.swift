import CSndFile

/// Names for libsndfile's format codes, for `DecodedAudio.formatDescription` and error messages.
enum FormatDescription {
    static func majorFormat(_ format: Int32) -> Int32 { format & Int32(SF_FORMAT_TYPEMASK) }

    static func describe(format: Int32, sampleRate: Int, channels: Int) -> String {
        let channelWords: String
        switch channels {
        case 1: channelWords = "mono"
        case 2: channelWords = "stereo"
        default: channelWords = "\(channels) channels"
        }
        return "\(containerName(format)) \(encodingName(format)), \(sampleRate) Hz, \(channelWords)"
    }

    static func containerName(_ format: Int32) -> String {
        switch Int(majorFormat(format)) {
        case SF_FORMAT_WAV: return "WAV"
        case SF_FORMAT_WAVEX: return "WAV (extensible)"
        case SF_FORMAT_RF64: return "RF64"
        case SF_FORMAT_W64: return "W64"
        case SF_FORMAT_AIFF: return "AIFF"
        case SF_FORMAT_CAF: return "CAF"
        case SF_FORMAT_FLAC: return "FLAC"
        case SF_FORMAT_OGG: return "Ogg"
        case SF_FORMAT_AU: return "AU"
        case SF_FORMAT_RAW: return "raw"
        default: return "audio"
        }
    }

    static func encodingName(_ format: Int32) -> String {
        switch Int(format & Int32(SF_FORMAT_SUBMASK)) {
        case SF_FORMAT_PCM_S8, SF_FORMAT_PCM_U8: return "PCM 8-bit"
        case SF_FORMAT_PCM_16: return "PCM 16-bit"
        case SF_FORMAT_PCM_24: return "PCM 24-bit"
        case SF_FORMAT_PCM_32: return "PCM 32-bit"
        case SF_FORMAT_FLOAT: return "float 32-bit"
        case SF_FORMAT_DOUBLE: return "float 64-bit"
        case SF_FORMAT_VORBIS: return "Vorbis"
        case SF_FORMAT_OPUS: return "Opus"
        case SF_FORMAT_ULAW: return "µ-law"
        case SF_FORMAT_ALAW: return "A-law"
        case SF_FORMAT_IMA_ADPCM, SF_FORMAT_MS_ADPCM: return "ADPCM"
        case SF_FORMAT_ALAC_16, SF_FORMAT_ALAC_20, SF_FORMAT_ALAC_24, SF_FORMAT_ALAC_32: return "ALAC"
        default: return "encoded"
        }
    }
}
